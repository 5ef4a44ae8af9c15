/**
 * Work a reader put off because it needs a module that is loaded on demand (the Markdown parser of
 * handoffs). Readers stay synchronous: they say what they are waiting for and read what they can;
 * whoever builds a snapshot may wait for it and read again (`tower status`), or read again when it
 * is done (the live store).
 */

const pending = new Set<Promise<unknown>>();
const listeners = new Set<() => void>();

/** Records a load a reader is waiting for; listeners hear when it is done (or failed). */
export function deferUntil(load: Promise<unknown>): void {
  if (pending.has(load)) return;
  pending.add(load);
  void load
    .catch(() => undefined)
    .finally(() => {
      pending.delete(load);
      for (const l of listeners) l();
    });
}

/** Resolves when every load a reader is waiting for is done; null when none is. */
export function deferredWork(): Promise<void> | null {
  if (pending.size === 0) return null;
  return Promise.allSettled([...pending]).then(() => undefined);
}

/** Calls `listener` each time a load readers waited for is done. */
export function onDeferredDone(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
