/**
 * A reducer held outside React. Keys are applied to it synchronously, so several keys arriving in
 * one read each see the state the previous one left; React reads it with useSyncExternalStore.
 */

/** A reducer's state with subscribe/getState/dispatch. */
export interface ReducerStore<S, A> {
  getState(): S;
  dispatch(action: A): void;
  subscribe(listener: () => void): () => void;
}

/** A store for `reducer`, starting at `initial`. */
export function createReducerStore<S, A>(reducer: (s: S, a: A) => S, initial: S): ReducerStore<S, A> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
