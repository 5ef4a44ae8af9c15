/** Waiting for a condition instead of sleeping: polls until it holds, fails with what was last seen. */

/** What a truthy result can be: `cond` returning `false | T` resolves to T. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Resolves with the first truthy value `cond` returns (sync or async), polling every `intervalMs`;
 * rejects after `timeoutMs` with the last error or value in the message.
 */
export async function waitFor<T>(
  cond: () => T | Promise<T>,
  timeoutMs = 5000,
  opts: { intervalMs?: number; what?: string } = {},
): Promise<Truthy<T>> {
  const interval = opts.intervalMs ?? 10;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await cond();
      if (v) return v as Truthy<T>;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${opts.what ?? 'a condition'} (last: ${seen})`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
