/**
 * The pane an action is about to touch is the one the operator saw: right before a signal, a key, an
 * answer or an attach, tmux is asked again who runs the pane now, on the server the snapshot found
 * it on, and the answer must be the process the snapshot saw (its pid and its start). A `%N` whose
 * process is another now (the server restarted, the pane was closed and its id given again) is
 * refused, naming what was seen and what is there.
 */
import type { AppContext } from '../context/context.js';
import type { LeadTarget, PaneProcess } from '../kit/detail.js';
import { ActionStop } from '../kit/execution.js';
import type { TmuxClient } from '../tmux/client.js';
import { paneListMarkers } from '../tmux/pane-list.js';
import { TmuxError } from '../tmux/errors.js';
import type { PaneLook } from '../tmux/pane-look.js';
import { procStart } from '../tmux/proc-start.js';
import { sanitize } from '../text/sanitize.js';
import { onServer, paneClient } from './pane-client.js';

/** What is checked: the pane, its server, and the process the snapshot saw in it (absent: nothing to compare). */
export interface PaneCheck {
  paneId: string;
  server?: string | null | undefined;
  process?: PaneProcess | undefined;
  /** Said in messages: the member's name. */
  who: string;
}

/**
 * Throws a refusal unless the pane still runs the process the snapshot saw (a failure when the pane
 * is gone). A target the snapshot saw no process for (a session's pane) is only checked to exist.
 * With `screenLines`, returns the pane's screen (sanitized) read in the same tmux call: the screen
 * of the process checked, this instant.
 */
export async function recheckPane(ctx: AppContext, t: PaneCheck, screenLines?: number): Promise<string> {
  const where = `${t.paneId}${onServer(t.server)}`;
  const client = paneClient(ctx, t.server);
  const look = screenLines ? await lookAt(client, t.paneId, screenLines) : null;
  const owner = screenLines ? look : await client.paneOwner(t.paneId);
  if (owner === null) throw new ActionStop('failed', `${t.who}'s pane ${where} is gone`);
  const wrong = processMismatch(t, owner.pid);
  if (wrong !== null) throw new ActionStop('refused', `${wrong}; nothing was done`);
  return look ? sanitize(look.screen) : '';
}

/** The pane's owner and screen in one tmux call (src/tmux/pane-look.ts, loaded when first used); null when gone. */
async function lookAt(client: TmuxClient, paneId: string, lines: number): Promise<PaneLook | null> {
  const { paneLookArgs, parsePaneLook } = await import('../tmux/pane-look.js');
  const m = paneListMarkers();
  try {
    return parsePaneLook(await client.run(paneLookArgs(paneId, m, lines)), paneId, m);
  } catch (err) {
    if (err instanceof TmuxError && (err.kind === 'no-such-pane' || err.kind === 'no-server')) return null;
    throw err;
  }
}

/**
 * Why the pane's first process `pid` (asked just now) is not the one the snapshot saw, or null when it is (or
 * nothing was seen).
 */
export function processMismatch(t: PaneCheck, pid: number): string | null {
  const seen = t.process;
  if (!seen) return null;
  const where = `${t.paneId}${onServer(t.server)}`;
  if (pid !== seen.pid)
    return (
      `pane ${where} is not the one you saw: it runs pid ${pid} now, ${t.who}'s pane ran pid ` +
      `${seen.pid} (another agent's pane has its id)`
    );
  if (seen.start === null) return null;
  const start = procStart(pid);
  if (start !== null && start !== seen.start)
    return (
      `pane ${where} is not the one you saw: its pid ${pid} is another process now (started at ` +
      `tick ${start}, ${t.who}'s at tick ${seen.start})`
    );
  return null;
}

/** recheckPane for a lead typed into by pane id; a lead typed into by its session's pane has no id to check. */
export async function recheckLead(ctx: AppContext, lead: LeadTarget): Promise<void> {
  if (!lead.target.startsWith('%')) return;
  await recheckPane(ctx, { paneId: lead.target, server: lead.server, process: lead.process, who: `lead ${lead.name}` });
}
