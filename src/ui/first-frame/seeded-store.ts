/**
 * The live store, showing the snapshot the opening frame was drawn from until the live store has
 * published its own: the session's first frame then draws the same runs the opening frame showed, instead
 * of an empty "reading state" screen in between.
 */
import type { Snapshot } from '../../model/model.js';
import type { SnapshotStore } from '../../store/types.js';

/** `live`, answering `first` until `live` publishes for the first time. */
export function seededStore(live: SnapshotStore, first: Snapshot): SnapshotStore {
  // Dropped once the live store has published: a big machine's snapshot is megabytes.
  let seed: Snapshot | null = first;
  // Subscribed before anyone else, so every later listener already reads the live snapshot.
  const stopSeeding = live.subscribe(() => {
    seed = null;
    stopSeeding();
  });
  return {
    subscribe: (listener) => live.subscribe(listener),
    getSnapshot: () => seed ?? live.getSnapshot(),
    start: async () => {
      await live.start();
      seed = null;
      stopSeeding();
    },
    stop: () => live.stop(),
    refresh: (runId) => live.refresh(runId),
  };
}
