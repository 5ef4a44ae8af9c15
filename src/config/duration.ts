/** Durations in the config file, checked the same way everywhere. */
import { z } from 'zod';

/**
 * A duration in the config: a finite number between sane bounds. The upper bounds keep every
 * timer below what setTimeout holds (2^31-1 ms, else it fires after 1 ms: a busy loop).
 */
export function duration(
  unit: 'ms' | 's' | 'min',
  min: number,
  max: number,
  fallback: number,
  opts: { int?: boolean } = {},
) {
  const words = { ms: 'ms', s: 's', min: 'minutes' }[unit];
  let n = z.number({ error: `must be a number of ${words}` });
  if (opts.int) n = n.int({ error: `must be a whole number of ${words}` });
  return n
    .min(min, { error: `at least ${min} ${words}` })
    .max(max, { error: `at most ${max} ${words}${unit === 'ms' ? ` (${max / 1000} s)` : ''}` })
    .default(fallback);
}
