/**
 * The live store, showing the snapshot the opening frame was drawn from until the live store has
 * published its own: ink's first frame then draws the same runs the opening frame showed, instead
 * of an empty "reading state" screen in between.
 */
import type { Snapshot } from '../../model.js';
import type { SnapshotStore } from '../../store/types.js';

/** `live`, answering `first` until `live` publishes for the first time. */
export function seededStore(live: SnapshotStore, first: Snapshot): SnapshotStore {
  let seeded = true;
  // Subscribed before anyone else, so every later listener already reads the live snapshot.
  const stopSeeding = live.subscribe(() => {
    seeded = false;
    stopSeeding();
  });
  return {
    subscribe: (listener) => live.subscribe(listener),
    getSnapshot: () => (seeded ? first : live.getSnapshot()),
    start: async () => {
      await live.start();
      seeded = false;
      stopSeeding();
    },
    stop: () => live.stop(),
    refresh: (runId) => live.refresh(runId),
  };
}
