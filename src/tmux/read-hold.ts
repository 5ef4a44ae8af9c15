/**
 * Stops and starts reading a child's pipe at the kernel, so what it writes waits there and is read
 * in one go. `pause()` does not do this: a paused stream goes on reading until 16 KB wait in it.
 *
 * Why: a followed pane that prints wakes tower once per write it makes. On this 2-core machine one
 * wake of node's loop costs ~0.2 ms of CPU however little it reads, and a pane printing ten lines a
 * second while a capture is due anyway made two thirds of `tower serve`'s wakes
 * (test/bench/serve-preview.bench.ts). Node has no public call for it; this uses the stream's
 * handle as node's own net.Socket does (`readStop`/`readStart`), and does nothing where a
 * handle has neither: the pipe is then read as it comes, as before.
 */
import type { Readable } from 'node:stream';

interface PipeHandle {
  reading?: boolean;
  readStop?: () => number;
  readStart?: () => number;
}

function handleOf(stream: Readable | null | undefined): PipeHandle | null {
  const h = (stream as unknown as { _handle?: PipeHandle } | null | undefined)?._handle;
  return h && typeof h.readStop === 'function' && typeof h.readStart === 'function' ? h : null;
}

/**
 * Stops reading the pipe; whether it did (false: it cannot be, or is not being read). The handle is
 * left marked as reading, so the stream does not start it again by itself the moment it wants more.
 */
export function holdReading(stream: Readable | null | undefined): boolean {
  const h = handleOf(stream);
  if (!h || h.reading !== true || stream?.destroyed) return false;
  return h.readStop!() === 0;
}

/** Reads the pipe again after `holdReading` (and what waited in it). */
export function releaseReading(stream: Readable | null | undefined): void {
  const h = handleOf(stream);
  if (!h || h.reading !== true || stream?.destroyed) return;
  if (h.readStart!() !== 0) stream?.destroy(new Error('the pipe could not be read again'));
}
