/**
 * The one guard every action passes right before it types a line into an agent's pane (send, each
 * line of the checkpoint and rehydrate cycles, on this box or on a box `tower serve` acts for):
 * the pane is captured again and must be positively at its input box (store/input-box.ts), and
 * where the agent's own state says it waits for permission (its Claude Code session file's
 * `status`/`waitingFor`, a request tower's hook holds for the pane, or what its CLI's module reads
 * of its own: opencode's server, Codex's app server, Gemini CLI's hook events) it is refused
 * whatever the screen seems to say. A refusal names why; nothing is typed.
 */
import type { AgentWays } from '../agents/types.js';
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
      "nor while its session file, tower's hook or its CLI's own server or hook events say it waits for permission",
  );
}

/** The pane id and first process of a target (a session's pane is asked of tmux), or null when tmux names none. */
async function paneOf(ctx: AppContext, t: TypingTarget): Promise<{ id: string; pid: number | null } | null> {
  const [id, pid] = (await paneClient(ctx, t.server).displayMessage(t.target, '#{pane_id} #{pane_pid}'))
    .trim()
    .split(' ');
  if (!id || !/^%\d+$/.test(id)) return null;
  return { id, pid: pid && /^\d+$/.test(pid) ? Number(pid) : null };
}

/** What the pane's CLI reads of its own state (its server, its hook events), fresh; null when it says nothing. */
async function cliWaits(
  ctx: AppContext,
  pane: { id: string; pid: number | null },
  server: string | null | undefined,
  waits: NonNullable<AgentWays['waitsForPermission']>,
): Promise<string | null> {
  if (pane.pid === null) return null;
  // Loaded only for a CLI that reads its own state here: the plans that name the guard stay light.
  const [{ HookEvents, hookEventsFile }, { paneArgv }] = await Promise.all([
    import('../store/hook-events.js'),
    import('../agents/pane-process.js'),
  ]);
  const events = new HookEvents(hookEventsFile(stateHome(ctx.env)));
  events.refresh();
  const hook = events.stateOf(serverSocket(ctx, server), pane.id, Date.now(), !server);
  return waits({
    pid: pane.pid,
    argv: paneArgv(pane.pid),
    hook: hook ? { event: hook.event, activity: hook.activity, cue: hook.cue } : null,
  });
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
 * Claude Code's when `ways` is absent) and nothing first-party says it waits for permission (its
 * session file, a held request, and what the module reads of its own state); `what` is said in the
 * refusal (`/clear`, `the line`).
 */
export async function guardTyping(
  ctx: AppContext,
  t: TypingTarget,
  what: string,
  ways?: Pick<AgentWays, 'screen' | 'waitsForPermission'>,
): Promise<void> {
  const atInput: (plain: string) => NotAtInput | null = ways ? (plain) => ways.screen.atInput(plain) : notAtInput;
  const where = `${t.who}'s pane ${t.target}${onServer(t.server)}`;
  // Two looks a moment apart: a dialog caught as its first line is drawn (its top rule alone) looks
  // like the input box's own rule; a moment later it does not.
  for (let look = 0; look < 2; look++) {
    if (look > 0) await sleep(SECOND_LOOK_MS);
    const why = atInput(await paneScreen(ctx, t.target, t.server));
    if (why) throw new ActionStop('refused', `${where} ${why.reason}; ${what} was not typed`);
  }
  const pane =
    /^%\d+$/.test(t.target) && !ways?.waitsForPermission ? { id: t.target, pid: null } : await paneOf(ctx, t);
  const waits =
    pane === null
      ? null
      : (waitsForPermission(ctx, pane.id, t.server) ??
        (ways?.waitsForPermission ? await cliWaits(ctx, pane, t.server, ways.waitsForPermission) : null));
  if (waits) throw new ActionStop('refused', `${where} waits for permission: ${waits}; ${what} was not typed`);
}
