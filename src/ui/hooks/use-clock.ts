/** The current time, re-rendering the caller once per clock tick while it is mounted. */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Clock } from '../clock.js';
import { createTickingClock } from '../clock.js';

export const ClockContext = createContext<Clock>(createTickingClock());

/** Now, in ms. */
export function useClock(): number {
  const clock = useContext(ClockContext);
  return useSyncExternalStore(clock.subscribe, clock.now);
}
