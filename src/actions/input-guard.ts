/**
 * The one guard every action passes right before it types a line into an agent's pane (send, each
 * line of the checkpoint and rehydrate cycles, on this box or on a box `tower serve` acts for):
 * the pane is captured again and must be positively at its input box (store/input-box.ts), and
 * where the agent's own state says it waits for permission (its Claude Code session file's
 * `status`/`waitingFor`, or a request tower's hook holds for the pane) it is refused whatever the
 * screen seems to say. A refusal names why; nothing is typed.
 */
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import type { LeadTarget } from '../kit/detail.js';
import { ActionStop } from '../kit/execution.js';
import { checkEffect } from '../kit/effects.js';
import type { Effect } from '../kit/types.js';
import { sleep } from '../kit/wait.js';
import { heldRequestFor } from '../store/held-requests.js';
import type { NotAtInput } from '../store/input-box.js';
import { notAtInput } from '../store/input-box.js';
import { SessionBook } from '../store/session-book.js';
import { sanitizeLine } from '../text/sanitize.js';
import { socketFile } from '../tmux/client.js';
import { onServer, paneClient, paneScreen, serverSocket } from './pane-client.js';

/** How long after the first look the second is taken. */
const SECOND_LOOK_MS = 100;

/** The pane about to be typed into. */
export interface TypingTarget {
  /** A pane id (`%3`) or a session's pane (`=tina-auth-phase-2:`). */
  target: string;
  /** Its Claude Code swarm server, or null: tower's own. */
  server?: string | null | undefined;
  /** Said in messages: `team-lead`, `lead team-lead in %3`. */
  who: string;
}

/** The pane a lead is typed into, as the guard names it. */
export function typingTarget(lead: LeadTarget): TypingTarget {
  return { target: lead.target, server: lead.server ?? null, who: `lead ${lead.name}` };
}

/** The dry run's and the confirm dialog's line for the guard before typing `what`. */
export function guardEffect(t: TypingTarget, what: string): Effect {
  return checkEffect(
    `what ${t.target}${onServer(t.server)} shows right before ${what} is typed: ` +
      'nothing is typed unless it is at its input box (not a dialog, a dialog taller than the pane, ' +
      'a dialog tower cannot read, a half-drawn frame), ' +
      "nor while its session file or tower's hook says it waits for permission",
  );
}

/** The pane id of a target (a session's pane is asked of tmux), or null when tmux names none. */
async function paneIdOf(ctx: AppContext, t: TypingTarget): Promise<string | null> {
  if (/^%\d+$/.test(t.target)) return t.target;
  const id = (await paneClient(ctx, t.server).displayMessage(t.target, '#{pane_id}')).trim();
  return /^%\d+$/.test(id) ? id : null;
}

/** What the agent's own state says it waits for (its session file, a held request), or null. */
export function waitsForPermission(ctx: AppContext, paneId: string, server: string | null | undefined): string | null {
  const held = heldRequestFor(stateHome(ctx.env), serverSocket(ctx, server), paneId);
  if (held) return `tower's hook holds a permission request from it (${held.id}${held.tool ? `, ${held.tool}` : ''})`;
  const book = new SessionBook(ctx.claudeDir, socketFile(ctx.tmux.socket, ctx.env));
  book.refresh();
  const state = book.stateOf(server ? `${server}/${paneId}` : paneId);
  if (state?.session.status === 'waiting')
    return (
      'its Claude Code session file says it is waiting' +
      (state.session.waitingFor ? ` for a ${sanitizeLine(state.session.waitingFor)}` : '')
    );
  return null;
}

/**
 * Throws a refusal unless the pane is at its input box now (as its CLI's module reads it: `atInput`,
 * Claude Code's by default) and nothing first-party says it waits
 * for permission; `what` is said in the refusal (`/clear`, `the line`).
 */
export async function guardTyping(
  ctx: AppContext,
  t: TypingTarget,
  what: string,
  atInput: (plain: string) => NotAtInput | null = notAtInput,
): Promise<void> {
  const where = `${t.who}'s pane ${t.target}${onServer(t.server)}`;
  // Two looks a moment apart: a dialog caught as its first line is drawn (its top rule alone) looks
  // like the input box's own rule; a moment later it does not.
  for (let look = 0; look < 2; look++) {
    if (look > 0) await sleep(SECOND_LOOK_MS);
    const why = atInput(await paneScreen(ctx, t.target, t.server));
    if (why) throw new ActionStop('refused', `${where} ${why.reason}; ${what} was not typed`);
  }
  const paneId = await paneIdOf(ctx, t);
  const waits = paneId === null ? null : waitsForPermission(ctx, paneId, t.server);
  if (waits) throw new ActionStop('refused', `${where} waits for permission: ${waits}; ${what} was not typed`);
}
