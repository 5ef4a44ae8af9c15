/** The live snapshot and the activity entries, read from their stores outside React. */
import { useSyncExternalStore } from 'react';
import type { Snapshot } from '../../model/model.js';
import type { ActivityStore } from '../../kit/activity.js';
import type { ActivityEntry, SnapshotStore } from '../../store/types.js';

/** The current snapshot; re-renders only when the store hands out a new object. */
export function useSnapshot(store: SnapshotStore): Snapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/** The activity entries, newest last. */
export function useActivity(activity: ActivityStore): readonly ActivityEntry[] {
  return useSyncExternalStore(activity.subscribe, activity.getSnapshot);
}
