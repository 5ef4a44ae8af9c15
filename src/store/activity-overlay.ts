/**
 * Member activity laid over a snapshot's runs (each member read by member-activity.ts): runs whose
 * members read the same keep their object, only the runs a change touched are laid over again, and
 * held requests no member can be tied to get rows of their own. The same step serves `tower status`
 * and the live screen.
 */
import type { Member, Run, Snapshot } from '../model/model.js';
import { memberPaneKey } from './pane-keys.js';
import type { PaneWatch } from './captures.js';
import { withForwardedRequests } from './forwarded-requests.js';
import { longTurns, statusWithActivity, withActivity } from './member-activity.js';
import { applyEdit, deltaFrom, recordDelta } from './delta.js';
import type { SnapshotDelta } from './delta.js';
import type { SnapshotStore } from './types.js';
import { cappedLine } from '../text/sanitize.js';

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

/** The longest tmux message a failed capture round shows: tmux's stderr may quote anything. */
export const CAPTURE_PROBLEM_CHARS = 200;

/** The row for a capture round that failed: one sanitized line, its tmux message capped. */
export function captureProblem(raw: string): string {
  return `tmux: ${cappedLine(raw, CAPTURE_PROBLEM_CHARS)}; member activity is unknown`;
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
  /**
   * The places in `of` (a run list) of the runs that have a member alive in each pane (by paneKey), made when
   * first needed.
   */
  private panesIndex: { of: readonly Run[]; at: Map<string, number[]> } | null = null;
  private wrapped: { base: Snapshot; key: string; out: Snapshot } | null = null;

  constructor(private readonly watch: PaneWatch) {}

  apply(inner: Snapshot): Snapshot {
    return this.withWatchProblems(this.overlaid(inner));
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
      // Only a pane's text moved (the previewed one prints): every member reads the same, and the held
      // requests are read again with the next change that can bring one (hook events read anew).
      if (panes?.size === 0) return ((last.version = version), last.out);
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

  /**
   * The snapshot with a row for the last capture round's failure and for hook events tower could
   * not read (the same object while they stay). `tower status` and the live screen both get them here.
   */
  private withWatchProblems(out: Snapshot): Snapshot {
    const capture = this.watch.problem === null ? null : captureProblem(this.watch.problem);
    const messages = [
      capture,
      this.watch.hooksProblem,
      this.watch.hooks?.problem ?? null,
      ...this.watch.agentProblems(),
    ].filter((m) => m !== null);
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
      message:
        `unattributed question: a held permission request ` +
        `(${[r.tool, r.subject].filter(Boolean).join(': ') || r.id}) from pane ${r.paneId} on ` +
        `${r.server ?? 'a tmux server the request does not name'}; tower cannot tie it to a member, ` +
        `so it answers it for none: answer it in the agent's own pane`,
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
