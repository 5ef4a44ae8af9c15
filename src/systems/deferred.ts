/**
 * Work a reader put off because it needs a module that is loaded on demand (the Markdown parser of
 * handoffs). Readers stay synchronous: they say what they are waiting for and read what they can;
 * whoever builds a snapshot starts the loads and waits for them and reads again (`tower status`), or
 * starts them and reads again when they are done (the live store). A load is started by whoever
 * wants the content, never by the read itself: the first frame, which shows a handoff's time and
 * path only, does not share its start with compiling a parser it does not use.
 */

/**
 * What a finished load changes: `all` (a module every reader may use: read everything again) or
 * `polled` (data fetched for the runs that said their read is polled: read those again).
 */
export type DeferredScope = 'all' | 'polled';

/** Loads readers asked for that nobody started yet. */
const asked = new Map<() => Promise<unknown>, DeferredScope>();
const pending = new Set<Promise<unknown>>();
const listeners = new Set<(scope: DeferredScope) => void>();

/** Records a load a reader is waiting for (`start` makes it, once); listeners hear when it is done (or failed). */
export function deferUntil(start: () => Promise<unknown>, scope: DeferredScope = 'all'): void {
  asked.set(start, scope);
}

function begin(start: () => Promise<unknown>, scope: DeferredScope): void {
  const load = start();
  if (pending.has(load)) return;
  pending.add(load);
  void load
    .catch(() => undefined)
    .finally(() => {
      pending.delete(load);
      for (const l of listeners) l(scope);
    });
}

/** Starts the loads readers asked for; resolves when every one is done; null when none is under way. */
export function deferredWork(): Promise<void> | null {
  for (const [start, scope] of asked) begin(start, scope);
  asked.clear();
  if (pending.size === 0) return null;
  return Promise.allSettled([...pending]).then(() => undefined);
}

/** Calls `listener` each time a load readers waited for is done. */
export function onDeferredDone(listener: (scope: DeferredScope) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
