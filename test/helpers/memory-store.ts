import type { Snapshot } from '../../src/model/model.js';
import type { SnapshotStore } from '../../src/store/types.js';

/** An in-memory snapshot store: tests set snapshots and its listeners hear each one. */
export function memoryStore(initial: Snapshot): SnapshotStore & { set(s: Snapshot): void } {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSnapshot: () => current,
    start: async () => {},
    stop: async () => {},
    refresh: () => {},
    set(s) {
      current = s;
      for (const l of listeners) l();
    },
  };
}
