/** The current time, re-rendering the caller once per clock tick while it is mounted. */
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { Clock } from '../clock.js';
import { createTickingClock } from '../clock.js';

export const ClockContext = createContext<Clock>(createTickingClock());

/**
 * Now, in ms, rounded down to `resolutionMs`: the caller re-renders only when the rounded value
 * moves (ages shown in minutes need not redraw the screen every second).
 */
export function useClock(resolutionMs = 1000): number {
  const clock = useContext(ClockContext);
  const now = useCallback(() => Math.floor(clock.now() / resolutionMs) * resolutionMs, [clock, resolutionMs]);
  return useSyncExternalStore(clock.subscribe, now);
}
