/**
 * The clock as a store outside React: ages and progress re-render once per second, and only while
 * something on screen subscribes (no timer runs after the screen is gone).
 */

/** A source of "now" that notifies subscribers when it moves. */
export interface Clock {
  subscribe(listener: () => void): () => void;
  /** The current time in ms; the same value between ticks. */
  now(): number;
}

/** A clock that ticks every `intervalMs` while it has subscribers. */
export function createTickingClock(intervalMs = 1000, source: () => number = Date.now): Clock {
  const listeners = new Set<() => void>();
  let current = source();
  let timer: ReturnType<typeof setInterval> | null = null;
  const tick = () => {
    current = source();
    for (const l of listeners) l();
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!timer) {
        current = source();
        timer = setInterval(tick, intervalMs);
        // The clock alone must never keep the process alive.
        timer.unref?.();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    now: () => current,
  };
}

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
