/** Waiting for something an agent does: polling with a timeout, progress reports and cancellation. */

/** Resolves after `ms`, or early (to false) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `fn` with an AbortSignal that SIGINT or SIGTERM aborts (an action then ends as cancelled), as
 * does an 'error' on any of `stopOnError`; the handlers are removed when `fn` settles.
 */
export async function cancellable<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  stopOnError: NodeJS.EventEmitter[] = [],
): Promise<T> {
  const ac = new AbortController();
  const stop = (): void => ac.abort();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const e of stopOnError) e.on('error', stop);
  try {
    return await fn(ac.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    for (const e of stopOnError) e.off('error', stop);
  }
}

/** How a wait ended: with a value, by timeout, or cancelled. */
export type WaitResult<T> =
  { status: 'ok'; value: T } | { status: 'timeout'; elapsedMs: number } | { status: 'cancelled'; elapsedMs: number };

/** What pollUntil polls, how often and for how long. */
export interface WaitOptions<T> {
  timeoutMs: number;
  intervalMs: number;
  signal?: AbortSignal | undefined;
  /** Checked once per interval; a non-null value ends the wait. It may throw to fail the wait. */
  check: () => Promise<T | null> | T | null;
  /** Called after every check that did not end the wait. */
  onTick?: ((elapsedMs: number) => Promise<void> | void) | undefined;
}

/** Polls `check` until it gives a value, the timeout passes, or the signal aborts. Never overlaps itself. */
export async function pollUntil<T>(opts: WaitOptions<T>): Promise<WaitResult<T>> {
  // The monotonic clock: a wall clock stepped back an hour (NTP, a VM resumed) must not stretch the
  // wait by that hour, nor one stepped forward end it at once.
  const start = performance.now();
  const elapsed = () => Math.round(performance.now() - start);
  for (;;) {
    if (opts.signal?.aborted) return { status: 'cancelled', elapsedMs: elapsed() };
    const value = await opts.check();
    if (value !== null) return { status: 'ok', value };
    const elapsedMs = elapsed();
    if (elapsedMs >= opts.timeoutMs) return { status: 'timeout', elapsedMs };
    await opts.onTick?.(elapsedMs);
    const slept = await sleep(Math.min(opts.intervalMs, Math.max(0, opts.timeoutMs - elapsedMs)), opts.signal);
    if (!slept) return { status: 'cancelled', elapsedMs: elapsed() };
  }
}

/** How many lines of a captured pane are exactly `marker` once trimmed (as agents print their completion lines). */
export function countMarker(screen: string, marker: string): number {
  let n = 0;
  for (const line of screen.split('\n')) if (line.trim() === marker) n++;
  return n;
}

/**
 * Whether the pane is ready for input: the most recent prompt line (starting with `>` or `❯`, maybe
 * inside an input box) among the last non-empty lines is not the echo of `typed`, the command just sent.
 */
export function showsPrompt(screen: string, typed: string, lastLines = 5): boolean {
  const lines = screen
    .split('\n')
    .map((l) => l.replace(/^[\s│┃|]+/, '').trim())
    .filter((l) => l !== '')
    .slice(-lastLines);
  const prompt = lines.reverse().find((l) => l.startsWith('>') || l.startsWith('❯'));
  return prompt !== undefined && !prompt.includes(typed);
}
