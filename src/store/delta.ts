/**
 * What changed from one snapshot to the next, kept beside the snapshot (never in it: the snapshot
 * is what `status --json` and the wire carry). A consumer that would walk every run to find what
 * changed (watch's diff, notices, the activity overlay) takes the delta instead when it follows
 * the very snapshot the delta starts from; on a box of 10,000 teams each such walk cost ~1 ms a change.
 */
import type { Run, Snapshot } from '../model/model.js';

/** How one run list is made from the one before: removals (ascending indices), then insertions in order. */
export interface RunEdit {
  removeAt: readonly number[];
  insert: readonly { at: number; run: Run }[];
}

export interface SnapshotDelta {
  /** The snapshot this one was made from. */
  prev: Snapshot;
  /** Runs of `prev` not in this snapshot (by object), in `prev`'s order. */
  removed: readonly Run[];
  /** Runs of this snapshot not in `prev` (by object), in this snapshot's order. */
  added: readonly Run[];
  edit: RunEdit;
}

const deltas = new WeakMap<Snapshot, SnapshotDelta>();

/** Says how `next` was made. */
export function recordDelta(next: Snapshot, delta: SnapshotDelta): void {
  deltas.set(next, delta);
}

/** How `next` was made from the snapshot before it, when that was recorded. */
export function deltaOf(next: Snapshot): SnapshotDelta | null {
  return deltas.get(next) ?? null;
}

/**
 * A count over a snapshot's runs kept from snapshot to snapshot: worked out from the one before
 * and the delta when that one was counted, else by walking every run. `count` is per run.
 */
export function countOver(cache: WeakMap<Snapshot, number>, snapshot: Snapshot, count: (run: Run) => number): number {
  let n = cache.get(snapshot);
  if (n !== undefined) return n;
  const d = deltas.get(snapshot);
  const before = d ? cache.get(d.prev) : undefined;
  if (d && before !== undefined) {
    n = before;
    for (const r of d.removed) n -= count(r);
    for (const r of d.added) n += count(r);
  } else {
    n = 0;
    for (const r of snapshot.runs) n += count(r);
  }
  cache.set(snapshot, n);
  return n;
}

/** What changed from `prev` to `next`, when `next` was made from exactly `prev`; else null (walk both). */
export function deltaFrom(prev: Snapshot | null, next: Snapshot): SnapshotDelta | null {
  const d = deltas.get(next);
  return d && prev && d.prev === prev ? d : null;
}

/** A list kept in step with the runs (one item per run, same places) made anew by the same edit. */
export function applyEdit<T>(items: readonly T[], edit: RunEdit, make: (run: Run) => T): T[] {
  const out = items.slice();
  for (let i = edit.removeAt.length - 1; i >= 0; i--) out.splice(edit.removeAt[i] as number, 1);
  for (const { at, run } of edit.insert) out.splice(at, 0, make(run));
  return out;
}
