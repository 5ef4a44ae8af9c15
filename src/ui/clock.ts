/**
 * Where the screen's time comes from. The screen does not tick on its own: `update` asks for the
 * next tick as an effect (model/tick.ts), whose timer reads `now()` and sends it in as a message; a
 * clock moved by hand (tests, benchmarks) also tells its subscribers, which send a tick at once.
 */

/** A source of "now"; `subscribe` hears a clock that is moved rather than read. */
export interface Clock {
  subscribe(listener: () => void): () => void;
  /** The current time in ms. */
  now(): number;
}

/** The system's clock: read by each tick, never moved. */
export const systemClock: Clock = { now: () => Date.now(), subscribe: () => () => {} };

/** A clock moved by hand (tests, benchmarks). */
export function createManualClock(start: number): Clock & { set(ms: number): void; subscribers(): number } {
  const listeners = new Set<() => void>();
  let current = start;
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    now: () => current,
    set(ms) {
      current = ms;
      for (const l of listeners) l();
    },
    subscribers: () => listeners.size,
  };
}
