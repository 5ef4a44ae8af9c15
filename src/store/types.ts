/** The contracts between the live store, the UI and the actions. */
import type { Snapshot } from '../model.js';

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

/** One line of the activity pane: an action from the moment it is asked for until it ends. */
export interface ActivityEntry {
  id: number;
  /** ISO time the action started. */
  time: string;
  action: string;
  runId: string | null;
  target: string | null;
  status: 'running' | 'done' | 'refused' | 'failed' | 'cancelled' | 'timeout';
  /** What is happening or what happened, one line. */
  message: string;
  /** While waiting: elapsed and timeout in ms, and what it waits for. */
  progress?: { elapsedMs: number; timeoutMs: number; waitingFor: string } | undefined;
  /** Extra lines (hook output, per-pane results). */
  details?: string[] | undefined;
}
