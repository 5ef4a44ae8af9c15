/**
 * The wall clock stepped back an hour (NTP correcting a box, a VM resumed) while tower runs: a
 * wait still ends on its own time (it is measured on the monotonic clock), the clock the screen
 * ticks on follows the new time, and every "ago" column says 0 rather than a negative or an hour.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { age as statusAge } from '../../src/commands/status-text.js';
import { pollUntil } from '../../src/kit/wait.js';
import { formatAge } from '../../src/systems/tina/run.js';
import type { Message } from '../../src/ui/model/model.js';
import { TickTimer } from '../../src/ui/model/tick.js';
import { age, clock } from '../../src/ui/text/format.js';

const HOUR = 3_600_000;

afterEach(() => vi.useRealTimers());

describe('the clock stepped back an hour', () => {
  it('leaves a 3 s wait a 3 s wait', async () => {
    // Date and the timers are faked; performance.now (the monotonic clock) goes on with the timers only.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
    let checks = 0;
    const waiting = pollUntil({ timeoutMs: 3000, intervalMs: 150, check: () => (checks++, null) });
    await vi.advanceTimersByTimeAsync(1000);
    vi.setSystemTime(new Date(Date.now() - HOUR));
    await vi.advanceTimersByTimeAsync(2200);
    const result = await waiting;
    expect(result.status).toBe('timeout');
    expect(result.status === 'timeout' && result.elapsedMs).toBeGreaterThanOrEqual(3000);
    expect(result.status === 'timeout' && result.elapsedMs).toBeLessThan(3500);
    expect(checks).toBeLessThan(30);
  });

  it('the ticking clock follows the new time; ages and durations never go negative', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
    const seen: number[] = [];
    const ticks: TickTimer = new TickTimer(Date.now, (m: Message) => {
      if (m.type === 'tick') seen.push(m.now);
      ticks.after(1000);
    });
    ticks.after(1000);
    await vi.advanceTimersByTimeAsync(1000);
    vi.setSystemTime(new Date(Date.now() - HOUR));
    await vi.advanceTimersByTimeAsync(1000);
    ticks.dispose();
    expect(seen).toHaveLength(2);
    expect(seen[0]! - seen[1]!).toBeGreaterThan(HOUR - 2000);
    // An event stamped just before the step is now an hour "in the future".
    const now = Date.now();
    const before = new Date(now + HOUR - 5000).toISOString();
    expect(age(before, now)).toBe('0s');
    expect(statusAge(before, now)).toBe('0s');
    expect(formatAge(now - Date.parse(before))).toBe('0 s');
    expect(clock(now - Date.parse(before))).toBe('0:00');
  });
});
