/**
 * Member activity laid over a snapshot's runs: what hooks say each member is doing, else what its
 * pane's capture shows, with the prompt it asks and the context its transcript gives; a run with no
 * tasks reads running or waiting by its members, and a turn that runs far too long is a warning.
 * The same step serves `tower status` and the live screen.
 */
import type { Member, Run, Snapshot } from '../model/model.js';
import { transcriptUsage } from '../systems/claude-teams/transcript.js';
import { memberPaneKey } from './captures.js';
import type { PaneLook, PaneWatch } from './captures.js';
import type { PanePrompt } from './prompt-reading.js';
import type { HeldRequest } from './held-requests.js';
import type { SessionState } from './session-book.js';
import { withForwardedRequests } from './forwarded-requests.js';
import { applyEdit, deltaFrom, recordDelta } from './delta.js';
import type { SnapshotDelta } from './delta.js';
import type { SnapshotStore } from './types.js';

/** A member with the activity its pane shows (unknown without a capture; dead and in-process members too). */
function withActivity(m: Member, watch: PaneWatch): Member {
  return withContext(activityOf(m, watch), watch);
}

/** A member's context from the transcript its hooks named (teammates too), unless it has one already. */
function withContext(m: Member, watch: PaneWatch): Member {
  if (m.state !== 'alive' || m.context) return m;
  const key = memberPaneKey(m);
  if (key === null) return m;
  const file = watch.transcriptOf(key);
  const usage = file ? transcriptUsage(file) : null;
  return usage
    ? { ...m, context: { usedPct: usage.usedPct, tokens: usage.used, window: usage.window }, tokens: usage.tokens }
    : m;
}

/**
 * A held request as the prompt tower answers: 1 allows, 2 denies, through the hook. One whose input
 * cannot be shown whole offers nothing: the agent's own dialog answers it when the hold ends.
 */
export function heldPrompt(r: HeldRequest): PanePrompt {
  if (r.unreadable)
    return {
      question: `Held by the hook, but its input cannot be shown whole (${r.unreadable}): answer in the agent's dialog when the hold ends`,
      subject: r.tool ? [r.tool] : [],
      options: [],
      signature: `held:${r.id}`,
    };
  const subject = [r.tool, r.subject].filter((x): x is string => x !== null);
  return {
    // Claude Code draws its own dialog too: both are open, and the first answer wins.
    question: "Allow this? (held by the hook for tower; the agent's own dialog is open too: the first answer wins)",
    subject,
    options: [
      { key: '1', label: 'Yes' },
      { key: '2', label: 'No' },
    ],
    signature: `held:${r.id}`,
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
  const told = pane ? sessionActivity(watch.sessionState(pane)) : null;
  const rest = 'prompt' in m ? withoutPrompt(m) : m;
  if (!hooked && !look && !told) return Object.assign({}, rest, NO_ACTIVITY);
  // While the hook holds a request the agent draws no dialog: the request stands in for it.
  const held = pane && hooked?.event === 'PermissionRequest' && !look?.prompt ? watch.heldRequest(pane) : null;
  const prompt = look?.prompt ? { prompt: look.prompt } : held ? { prompt: heldPrompt(held) } : {};
  // The CLI's own word first: it writes its status as it changes, with no setup.
  if (told) return Object.assign({}, rest, prompt, told);
  // A hook's "working" (PreToolUse) is older than a question the screen shows now: a teammate's
  // request forwarded to its lead fires no PermissionRequest in the teammate.
  if (hooked && !(hooked.activity === 'working' && look?.reading.cue === 'question'))
    return Object.assign({}, rest, prompt, {
      activity: hooked.activity,
      activitySince: new Date(hooked.at).toISOString(),
      activityCue: hooked.cue,
      activitySource: 'hooks' as const,
    });
  const seen = look as PaneLook;
  return Object.assign({}, rest, prompt, {
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

/** A member without the prompt an earlier capture saw. */
function withoutPrompt(m: Member): Member {
  const { prompt: _seenBefore, ...rest } = m;
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
        `${m.name} has shown working for ${Math.floor((now - since) / 60_000)} min, longer than any turn: out of quota, or at a login or trust screen?`,
      );
    }
  }
  return out;
}

/**
 * A run's status with its members' activity laid over it. A Claude team (whose files give no status
 * but its tasks') is waiting while a member asks or its lead waits, running while a member works.
 * Otherwise a run with no tasks that its reader could only call idle (a Claude team whose tasks are off or deleted once done: Claude Code no longer gives
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

/** The pane keys of every member alive, walked when asked for. */
function* alivePaneKeys(runs: readonly Run[]): Generator<string> {
  for (const r of runs)
    for (const m of r.members) {
      const key = m.state === 'alive' ? memberPaneKey(m) : null;
      if (key !== null) yield key;
    }
}

/** Whether no member of a run has a pane alive: then nothing captured or hooked can speak for any of them. */
function noneAlive(run: Run): boolean {
  for (const m of run.members) if (m.state === 'alive') return false;
  return true;
}

/** Lays activity over a snapshot's members; runs whose members read the same keep their object. */
export class ActivityOverlay {
  /** The runs with a member alive, by id: what their members read as, and the run laid over. */
  private cache = new Map<string, { inner: Run; key: string; out: Run }>();
  /**
   * Runs with no member alive read "unknown" for good, whatever the captures say: laid over once per
   * run object. On a box of 10,000 ended teams this is what keeps a snapshot's overlay near free.
   */
  private still = new WeakMap<Run, Run>();
  /**
   * The last snapshot laid over: from `inner` with the captures at `version`; `out` is `laid` with a
   * row per unattributed held request (`rows`, their messages, empty with none).
   */
  private last: { inner: Snapshot; version: number; laid: Snapshot; rows: string; out: Snapshot } | null = null;
  /** The places in `of` (a run list) of the runs that have a member alive in each pane (by paneKey), made when first needed. */
  private panesIndex: { of: readonly Run[]; at: Map<string, number[]> } | null = null;
  private wrapped: { base: Snapshot; key: string; out: Snapshot } | null = null;

  constructor(private readonly watch: PaneWatch) {}

  apply(inner: Snapshot): Snapshot {
    return this.withHookProblems(this.overlaid(inner));
  }

  private overlaid(inner: Snapshot): Snapshot {
    const version = this.watch.getVersion();
    const last = this.last;
    if (last && last.inner === inner && last.version === version) return last.out;
    let laid: Snapshot | null = null;
    if (last?.version === version) {
      // Made from the last snapshot with the captures as they were: only the runs that came are laid over.
      const delta = deltaFrom(last.inner, inner);
      if (delta) laid = this.applyDelta(last.out, inner, delta);
    } else if (last?.inner === inner) {
      // The same snapshot with some panes captured anew (the previewed one prints): only their runs are laid over.
      const panes = this.watch.changedSince(last.version);
      if (panes) laid = this.applyPanes(last, inner, panes);
    }
    laid ??= this.applyAll(inner);
    const { rows, out } = this.withUnattributed(laid, last);
    this.last = { inner, version, laid, rows, out };
    return out;
  }

  /**
   * The runs with a member alive in one of these panes laid over again, every other run kept as it
   * was; the same snapshot when none reads otherwise now.
   */
  private applyPanes(last: { laid: Snapshot; out: Snapshot }, inner: Snapshot, panes: ReadonlySet<string>): Snapshot {
    const prev = last.out;
    const index = this.paneIndex(prev.runs);
    const places = new Set<number>();
    for (const key of panes) for (const i of index.get(key) ?? []) places.add(i);
    if (places.size === 0) return last.laid;
    const runs = prev.runs.slice();
    const removeAt: number[] = [];
    const insert: { at: number; run: Run }[] = [];
    for (const i of [...places].sort((a, b) => a - b)) {
      // prev's runs stand in inner's places: each was laid over from the run at the same place.
      const out = this.layOver(inner.runs[i] as Run, this.cache);
      if (out === runs[i]) continue;
      removeAt.push(i);
      insert.push({ at: i, run: out });
      runs[i] = out;
    }
    if (removeAt.length === 0) return last.laid;
    const next = { ...inner, runs };
    recordDelta(next, {
      prev,
      removed: removeAt.map((i) => prev.runs[i] as Run),
      added: insert.map((x) => x.run),
      edit: { removeAt, insert },
    });
    // The places stay (a run's members are the inner run's, laid over): the index serves the new list too.
    this.panesIndex = { of: runs, at: index };
    return next;
  }

  /** Where in `runs` the runs with a member alive in each pane are (by paneKey). */
  private paneIndex(runs: readonly Run[]): Map<string, number[]> {
    if (this.panesIndex?.of === runs) return this.panesIndex.at;
    const at = new Map<string, number[]>();
    runs.forEach((run, i) => {
      for (const m of run.members) {
        const key = m.state === 'alive' ? memberPaneKey(m) : null;
        if (key === null) continue;
        const list = at.get(key);
        if (!list) at.set(key, [i]);
        else if (list.at(-1) !== i) list.push(i);
      }
    });
    this.panesIndex = { of: runs, at };
    return at;
  }

  /** The snapshot with a row for hook events tower could not read (the same object while they stay). */
  private withHookProblems(out: Snapshot): Snapshot {
    const messages = [this.watch.hooksProblem, this.watch.hooks?.problem ?? null].filter((m) => m !== null);
    if (messages.length === 0) return out;
    const key = messages.join('\n');
    const w = this.wrapped;
    if (w && w.base === out && w.key === key) return w.out;
    const wrapped = { ...out, problems: [...out.problems, ...messages.map((message) => ({ file: null, message }))] };
    this.wrapped = { base: out, key, out: wrapped };
    return wrapped;
  }

  /**
   * The snapshot with a problem row per held permission request that no member's pane can be told
   * to own (another server's `%N`, a pane no member is in, a request naming no server): an
   * unattributed question, answered in the agent's own pane, never shown or answered as a member's.
   */
  private withUnattributed(
    s: Snapshot,
    last: { laid: Snapshot; rows: string; out: Snapshot } | null,
  ): { rows: string; out: Snapshot } {
    // The members' panes are walked only when a request is held (the walk is every member's).
    const loose = this.watch.unattributedHeld(alivePaneKeys(s.runs));
    if (loose.length === 0) return { rows: '', out: s };
    const rows = loose.map((r) => ({
      file: r.file,
      message: `unattributed question: a held permission request (${[r.tool, r.subject].filter(Boolean).join(': ') || r.id}) from pane ${r.paneId} on ${r.server ?? 'a tmux server the request does not name'}; tower cannot tie it to a member, so it answers it for none: answer it in the agent's own pane`,
    }));
    const key = JSON.stringify(rows);
    // The same runs with the same rows: the same snapshot (its listeners have nothing new to read).
    if (last?.laid === s && last.rows === key) return { rows: key, out: last.out };
    return { rows: key, out: { ...s, problems: [...s.problems, ...rows] } };
  }

  /** Every run laid over again. */
  private applyAll(inner: Snapshot): Snapshot {
    const next = new Map<string, { inner: Run; key: string; out: Run }>();
    const runs = inner.runs.map((run) => this.layOver(run, next));
    this.cache = next;
    const prevOut = this.last?.out;
    const same =
      prevOut &&
      prevOut.problems === inner.problems &&
      prevOut.runs.length === runs.length &&
      runs.every((r, i) => r === prevOut.runs[i]);
    return same ? prevOut : { ...inner, runs };
  }

  /**
   * The runs that came laid over, the others kept in their places (the delta's edit); null when a
   * run kept from before would read otherwise now (a turn grew too long): then every run is laid over.
   */
  private applyDelta(prevOut: Snapshot, inner: Snapshot, delta: SnapshotDelta): Snapshot | null {
    const removed = new Set(delta.removed);
    const cache = new Map(this.cache);
    for (const [id, c] of this.cache) {
      if (removed.has(c.inner)) {
        cache.delete(id);
        continue;
      }
      const probe = new Map<string, { inner: Run; key: string; out: Run }>();
      if (this.layOver(c.inner, probe) !== c.out) return null;
    }
    const made = new Map<Run, Run>();
    const runs = applyEdit(prevOut.runs, delta.edit, (run) => {
      const out = this.layOver(run, cache);
      made.set(run, out);
      return out;
    });
    this.cache = cache;
    const out = { ...inner, runs };
    const removedOut = delta.edit.removeAt.map((i) => prevOut.runs[i] as Run);
    recordDelta(out, {
      prev: prevOut,
      removed: removedOut,
      added: delta.added.map((r) => made.get(r) as Run),
      edit: {
        removeAt: delta.edit.removeAt,
        insert: delta.edit.insert.map(({ at, run }) => ({ at, run: made.get(run) as Run })),
      },
    });
    return out;
  }

  /**
   * Why a member asking through a permission hook shows no held request although one may be held
   * (the folder is not safe to read or answer in, or too full), or null.
   */
  private heldProblem(members: readonly Member[]): string | null {
    const hooks = this.watch.hooks;
    if (!hooks) return null;
    for (const m of members)
      if (m.activitySource === 'hooks' && m.activityCue === 'question') return hooks.heldProblem(Date.now());
    return null;
  }

  /** One run laid over; a run with a member alive is noted in `cache` (by id). */
  private layOver(run: Run, cache: Map<string, { inner: Run; key: string; out: Run }>): Run {
    if (noneAlive(run)) {
      let out = this.still.get(run);
      if (!out) {
        out = { ...run, members: run.members.map((m) => withActivity(m, this.watch)) };
        this.still.set(run, out);
      }
      return out;
    }
    const members = withForwardedRequests(run.members.map((m) => withActivity(m, this.watch)));
    const stuck = longTurns(members, Date.now());
    const held = this.heldProblem(members);
    const key = `${members.map((m) => `${m.activity}|${m.activitySince}|${m.activityCue ?? ''}|${m.activitySource ?? ''}|${m.prompt?.signature ?? ''}|${m.context?.tokens ?? ''}`).join('\n')}\n${stuck.join('\n')}\n${held ?? ''}`;
    const prev = this.cache.get(run.id);
    const status = statusWithActivity(run, members);
    const out =
      prev && prev.inner === run && prev.key === key
        ? prev.out
        : {
            ...run,
            status,
            members,
            ...(stuck.length ? { warnings: [...(run.warnings ?? []), ...stuck] } : {}),
            ...(held ? { problems: [...run.problems, { file: null, message: held }] } : {}),
          };
    cache.set(run.id, { inner: run, key, out });
    return out;
  }
}

/** The live store with activity laid over it: listeners hear both the store and the captures. */
export function withPaneActivity(store: SnapshotStore, watch: PaneWatch): SnapshotStore {
  const overlay = new ActivityOverlay(watch);
  return {
    subscribe(listener) {
      const a = store.subscribe(listener);
      const b = watch.subscribe(listener);
      return () => {
        a();
        b();
      };
    },
    getSnapshot: () => overlay.apply(store.getSnapshot()),
    start: () => store.start(),
    stop: () => store.stop(),
    refresh: (runId) => store.refresh(runId),
  };
}
