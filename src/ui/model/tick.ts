/**
 * The screen's clock as messages: a `tick` carries the time in, `update` keeps it in the model
 * rounded to the finest age the frame shows (a second while something on screen is young, else a
 * minute), so the screen draws again only when an age it shows moves, and asks for the next tick as
 * an effect. The timer that answers it is bounded: one pending at a time, its wait clamped, unref'd,
 * cleared when the screen goes.
 */
import type { Message } from './model.js';

/** How often the clock ticks. */
export const TICK_MS = 1000;
/** The shortest and longest wait a tick may be asked for. */
const MIN_TICK_MS = 50;
const MAX_TICK_MS = 60_000;

/** The one timer of the screen's clock. */
export class TickTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly now: () => number,
    private readonly send: (message: Message) => void,
  ) {}

  /** Sends a tick after `ms` (clamped), in place of any tick still pending. */
  after(ms: number): void {
    this.dispose();
    const wait = Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, ms));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send({ type: 'tick', now: this.now() });
    }, wait);
    // The clock alone must never keep the process alive.
    this.timer.unref?.();
  }

  /** Whether a tick is pending. */
  pending(): boolean {
    return this.timer !== null;
  }

  /** Drops the pending tick. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
