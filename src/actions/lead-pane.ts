/** The lead's pane as the checkpoint cycle sees it: present and alive, and its text while tower waits on it. */
import type { AppContext } from '../context/context.js';
import { TmuxError } from '../tmux/errors.js';
import type { LeadTarget } from '../kit/detail.js';
import { ActionStop, isPaneGone } from '../kit/execution.js';
import { paneClient } from './pane-client.js';

/** Lines of scrollback searched for a completion line (tmux clamps to its history). */
export const CAPTURE_LINES = 10_000;

/** Throws a clear failure unless the lead's pane exists and is alive. */
export async function ensureLeadPane(ctx: AppContext, lead: LeadTarget): Promise<void> {
  let state: string;
  try {
    // display-message prints nothing (and succeeds) for a pane id that does not exist.
    state = await paneClient(ctx, lead.server).displayMessage(lead.target, '#{pane_id} #{pane_dead}');
  } catch (err) {
    // No server at all is a tmux error of its own (with its hint); a missing session is a gone lead.
    if (err instanceof TmuxError && err.kind === 'no-such-pane')
      throw new ActionStop('failed', `lead ${lead.label} is gone: ${err.message}`);
    throw err;
  }
  const [paneId, dead] = state.split(' ');
  if (!paneId?.startsWith('%') || (lead.target.startsWith('%') && paneId !== lead.target)) {
    throw new ActionStop('failed', `lead ${lead.label} is gone: no such pane`);
  }
  if (dead === '1') throw new ActionStop('failed', `lead ${lead.label}: its process has exited (dead pane)`);
}

/** Captures the lead's pane, turning "pane gone" into a clear failure. */
export async function captureLead(ctx: AppContext, lead: LeadTarget): Promise<string> {
  try {
    return await paneClient(ctx, lead.server).capturePane(lead.target, CAPTURE_LINES);
  } catch (err) {
    if (isPaneGone(err))
      throw new ActionStop(
        'failed',
        `lead ${lead.label} disappeared while tower was waiting for it (${(err as Error).message})`,
      );
    throw err;
  }
}

/** The lead's pane while waiting on it: a slow tmux (timeout) reads as an empty screen, a vanished pane fails. */
export async function screenWhileWaiting(ctx: AppContext, lead: LeadTarget): Promise<string> {
  try {
    return await captureLead(ctx, lead);
  } catch (err) {
    if (err instanceof TmuxError && err.kind === 'timeout') return '';
    throw err;
  }
}
