/** The contracts between the live store, the UI and the actions. */
import type { Snapshot } from '../model/model.js';

/**
 * The live snapshot, outside React. `getSnapshot` returns the same object until something changed;
 * listeners are called at most once per frame (batched).
 */
export interface SnapshotStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): Snapshot;
  /** Reads everything once, starts watching and polling; resolves after the first snapshot. */
  start(): Promise<void>;
  /** Stops watchers and the poll loop. */
  stop(): Promise<void>;
  /** Re-reads now (one run, or all when no id is given). */
  refresh(runId?: string): void;
}

export type { ActivityEntry } from '../kit/activity.js';
