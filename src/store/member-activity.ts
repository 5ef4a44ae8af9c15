/**
 * What one member reads as once its pane, hooks and session file have spoken: its activity with the
 * source that said it, the prompt it asks, the context its transcript gives; what a run's status
 * reads as by its members, and the warning for a turn that runs far too long. The overlay
 * (activity-overlay.ts) lays these over a snapshot's runs.
 */
import type { Member, Run } from '../model/model.js';
import { transcriptUsage } from '../agents/claude-code/files.js';
import { memberPaneKey } from './pane-keys.js';
import type { PaneLook, PaneWatch } from './captures.js';
import type { PanePrompt } from './prompt-reading.js';
import type { HeldRequest } from './held-requests.js';
import type { SessionState } from './session-book.js';

/** A member with the activity its pane shows (unknown without a capture; dead and in-process members too). */
export function withActivity(m: Member, watch: PaneWatch): Member {
  return withContext(activityOf(m, watch), watch);
}

/**
 * A member's context from its CLI's own source (opencode's server, Codex's rollout), else from the
 * transcript its hooks named (teammates too), unless it has one already.
 */
function withContext(m: Member, watch: PaneWatch): Member {
  if (m.state !== 'alive' || m.context) return m;
  const key = memberPaneKey(m);
  if (key === null) return m;
  const own = watch.serverState(key)?.usage ?? watch.agentState(key)?.usage;
  if (own) return { ...m, context: { usedPct: own.usedPct, tokens: own.used, window: own.window }, tokens: own.tokens };
  const file = watch.transcriptOf(key);
  const usage = file ? transcriptUsage(file) : null;
  return usage
    ? { ...m, context: { usedPct: usage.usedPct, tokens: usage.used, window: usage.window }, tokens: usage.tokens }
    : m;
}

/** A held request as the member's `held` entry (status JSON, the answer dialog). */
export function heldEntry(r: HeldRequest): NonNullable<Member['held']>[number] {
  return {
    id: r.id,
    hash: r.hash,
    tool: r.tool,
    subject: r.subject,
    cut: r.cut,
    whole: r.whole,
    unreadable: r.unreadable,
    until: new Date(r.until).toISOString(),
  };
}

/** A held request's signature: its id and its input's hash, which an answer is bound to. */
export function heldSignature(r: Pick<HeldRequest, 'id' | 'hash'>): string {
  return r.hash ? `held:${r.id}:${r.hash}` : `held:${r.id}`;
}

/**
 * A held request as the prompt tower answers: 1 allows, 2 denies, through the hook. One whose input
 * cannot be shown whole offers nothing: the agent's own dialog answers it when the hold ends. Other
 * requests held for the same pane (`others`) are named under it: each is answered by itself.
 */
export function heldPrompt(r: HeldRequest, others: readonly HeldRequest[] = []): PanePrompt {
  const also = others.map(
    (o) => `also held: request ${o.id} (${[o.tool, o.subject].filter(Boolean).join(': ')}): answer it by its id`,
  );
  if (r.unreadable)
    return {
      question:
        `Held by the hook, but its input cannot be shown whole (${r.unreadable}): answer in ` +
        `the agent's dialog when the hold ends`,
      subject: [...(r.tool ? [r.tool] : []), ...also],
      options: [],
      signature: heldSignature(r),
    };
  const subject = [r.tool, r.subject].filter((x): x is string => x !== null);
  return {
    // Claude Code draws its own dialog too: both are open, and the first answer wins.
    question:
      `Allow this? (held by the hook for tower as request ${r.id}; the agent's own dialog is ` +
      `open too: the first answer wins)`,
    subject: [...subject, ...also],
    options: [
      { key: '1', label: 'Yes' },
      { key: '2', label: 'No' },
    ],
    signature: heldSignature(r),
  };
}

/** The activity of a member nothing speaks for: no pane alive, no capture, no hook. */
const NO_ACTIVITY = { activity: 'unknown', activitySince: null, activitySource: null } as const;

/**
 * A member with what hooks say it is doing, else what its pane shows, and the prompt the pane shows.
 * Object.assign, not `{ ...m, activity }`: on Node 20 a spread that adds keys gives every object a
 * map of its own (slow to make, to collect and to print): 30,000 members took 0.1 s here.
 */
function activityOf(m: Member, watch: PaneWatch): Member {
  const pane = m.state === 'alive' ? memberPaneKey(m) : null;
  const look = pane ? watch.look(pane) : undefined;
  const hooked = pane ? watch.hookState(pane) : null;
  const told = pane ? (sessionActivity(watch.sessionState(pane)) ?? watch.agentActivity(pane)) : null;
  const rest = 'prompt' in m || 'held' in m ? withoutPrompt(m) : m;
  // Every request held for the pane is shown, each answerable by itself; where the pane draws no
  // dialog the oldest stands in for it, the others named under it.
  const held = pane ? watch.heldRequests(pane) : [];
  // Which CLI the pane runs, as its capture told it (nothing for a shell, or before a capture).
  const agent = look?.agent ? { agent: look.agent } : {};
  // The CLI's own server, where it serves one, says exactly what it does and what it asks: the
  // screen's dialog is not read then (its request, by id, is what is shown and answered).
  const served = pane ? watch.serverState(pane) : null;
  if (served)
    return Object.assign({}, rest, agent, served.prompt ? { prompt: served.prompt } : {}, {
      activity: served.activity,
      activitySince: new Date(served.since).toISOString(),
      activityCue: served.cue,
      activitySource: 'events' as const,
    });
  if (!hooked && !look && !told && held.length === 0) return Object.assign({}, rest, NO_ACTIVITY);
  const prompt = look?.prompt
    ? { prompt: look.prompt }
    : held.length > 0
      ? { prompt: heldPrompt(held[0]!, held.slice(1)) }
      : {};
  if (held.length > 0) Object.assign(prompt, { held: held.map(heldEntry) });
  // A request held for the pane waits for the operator, whatever else its agent does meanwhile (a
  // background subagent asks while its lead works): the member is waiting at a question.
  if (held.length > 0 && !look?.prompt)
    return Object.assign({}, rest, agent, prompt, {
      activity: 'waiting' as const,
      activitySince: new Date(held[0]!.since).toISOString(),
      activityCue: 'question',
      activitySource: 'hooks' as const,
    });
  // The CLI's own word first: it writes its status as it changes, with no setup.
  if (told) return Object.assign({}, rest, agent, prompt, told);
  // A hook's "working" (PreToolUse) is older than a question the screen shows now: a teammate's
  // request forwarded to its lead fires no PermissionRequest in the teammate.
  if (hooked && !(hooked.activity === 'working' && look?.reading.cue === 'question'))
    return Object.assign({}, rest, agent, prompt, {
      activity: hooked.activity,
      activitySince: new Date(hooked.at).toISOString(),
      activityCue: hooked.cue,
      activitySource: 'hooks' as const,
    });
  const seen = look as PaneLook;
  return Object.assign({}, rest, agent, prompt, {
    activity: seen.reading.activity,
    activitySince: new Date(seen.since).toISOString(),
    activityCue: seen.reading.cue,
    activitySource: 'screen' as const,
  });
}

/**
 * What Claude Code's own session file says, as a member's activity: `busy` is working; `waiting`
 * (at a permission prompt or a question) and `idle` (its turn ended, the input box shown) are
 * waiting. Null when there is no live session in the pane or its status is one tower does not know.
 */
function sessionActivity(
  state: SessionState | null,
): Pick<Member, 'activity' | 'activitySince' | 'activityCue' | 'activitySource'> | null {
  const s = state?.session;
  if (!s || s.status === 'unknown') return null;
  return {
    activity: s.status === 'busy' ? 'working' : 'waiting',
    activitySince: s.statusAt === null ? null : new Date(s.statusAt).toISOString(),
    activityCue: s.status === 'busy' ? 'interrupt-hint' : s.status === 'waiting' ? 'question' : 'prompt',
    activitySource: 'session',
  };
}

/** A member without the prompt and held requests an earlier capture saw. */
function withoutPrompt(m: Member): Member {
  const { prompt: _seenBefore, held: _heldBefore, ...rest } = m;
  return rest;
}

/** Longer than any turn: an agent "working" this long is stuck (out of quota, at a login or trust screen). */
export const LONG_TURN_MS = 30 * 60_000;

/** A warning per member that has shown working for longer than any turn. */
export function longTurns(members: readonly Member[], now: number): string[] {
  const out: string[] = [];
  for (const m of members) {
    const since = m.activity === 'working' && m.activitySince ? Date.parse(m.activitySince) : NaN;
    if (Number.isFinite(since) && now - since > LONG_TURN_MS) {
      out.push(
        `${m.name} has shown working for ${Math.floor((now - since) / 60_000)} min, longer than any ` +
          `turn: out of quota, or at a login or trust screen?`,
      );
    }
  }
  return out;
}

/**
 * A run's status with its members' activity laid over it. A Claude team (whose files give no status
 * but its tasks') is waiting while a member asks or its lead waits, running while a member works.
 * Otherwise a run with no tasks that its reader could only call idle (a Claude team whose tasks are off or
 * deleted once done: Claude Code no longer gives
 * newer models the task tools by default) is running while a member works, and waiting while one
 * waits at its prompt. Any other status is the reader's.
 */
export function statusWithActivity(run: Run, members: readonly Member[]): Run['status'] {
  // A Claude team's files say no status of their own, only its tasks do: what its members do now
  // says more (a lead working on a team whose tasks are done is not complete; one asking is waiting).
  // A member asking holds the team up whatever its tasks say: a task in progress beside a question
  // is still a team waiting for the operator.
  if (
    run.system === 'claude-team' &&
    run.status !== 'blocked' &&
    members.some((m) => m.activity === 'waiting' && m.prompt)
  )
    return 'waiting';
  if (
    run.system === 'claude-team' &&
    (run.status === 'idle' || run.status === 'unknown' || run.status === 'complete')
  ) {
    if (members.some((m) => m.activity === 'working')) return 'running';
    if (members.some((m) => m.activity === 'waiting' && m.lead)) return 'waiting';
  }
  // A Claude team with no tasks whose config calls a member active is unknown until a member says.
  const open = run.status === 'idle' || (run.status === 'unknown' && run.system === 'claude-team');
  if (!open || run.tasks.length > 0) return run.status;
  if (members.some((m) => m.activity === 'working')) return 'running';
  if (members.some((m) => m.activity === 'waiting')) return 'waiting';
  if (run.status === 'unknown' && members.length > 0 && members.every((m) => m.activity === 'idle')) return 'idle';
  return run.status;
}
