/**
 * `JSON.stringify(value)` and a newline, written in pieces as the reader takes them: the same bytes,
 * without ever holding the whole text. On a box of 10,000 teams the one-line snapshot is 14 MB; its
 * string, the copy with the newline and the UTF-8 buffer node makes to write it were 42 MB of fresh
 * memory (about 10,500 page faults, and a first touch of a page costs ~16 µs on this kind of
 * machine, a VM), and whatever the pipe did not take at once stayed queued in memory.
 */
import { once } from 'node:events';

/**
 * The most characters in one write: node writes a string of up to 16 KB of UTF-8 (three bytes a
 * character at most) from the stack, and copies every longer one into a buffer of its own.
 */
const PIECE = 5_000;

/**
 * Writes `value` (a plain object) as JSON.stringify would, then a newline. Each element of an array
 * at its top is stringified alone, so no string is much bigger than one element (a run, a problem),
 * and when the stream holds more than its high-water mark the next piece waits for it to drain.
 * Resolves false when the stream closed before everything was written.
 */
export async function writeJsonLine(out: NodeJS.WritableStream, value: Record<string, unknown>): Promise<boolean> {
  let pending = '';
  let full = false;
  const put = (text: string): void => {
    pending += text;
    if (pending.length >= PIECE) ({ rest: pending, full } = flush(out, pending));
  };
  put('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (Array.isArray(v)) {
      put(`${first ? '' : ','}${JSON.stringify(key)}:[`);
      // A hole, undefined or a function in an array is null, as JSON.stringify writes it.
      for (let i = 0; i < v.length; i++) {
        put(`${i ? ',' : ''}${(JSON.stringify(v[i]) as string | undefined) ?? 'null'}`);
        if (full && !(await drained(out))) return false;
        full = false;
      }
      put(']');
    } else {
      // undefined, a function or a symbol: left out, as JSON.stringify leaves the key out.
      const text = JSON.stringify(v) as string | undefined;
      if (text === undefined) continue;
      put(`${first ? '' : ','}${JSON.stringify(key)}:${text}`);
    }
    first = false;
  }
  return !flush(out, `${pending}}\n`, true).full || drained(out);
}

/** Writes whole pieces of `text`; the rest (nothing when `all`), and whether the stream asked to wait. */
function flush(out: NodeJS.WritableStream, text: string, all = false): { rest: string; full: boolean } {
  let at = 0;
  let full = false;
  while (text.length - at >= PIECE || (all && at < text.length)) {
    let end = Math.min(at + PIECE, text.length);
    // Never between the two halves of a surrogate pair: each half alone would be written as U+FFFD.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    if (!out.write(text.slice(at, end))) full = true;
    at = end;
  }
  return { rest: text.slice(at), full };
}

/** Whether the stream drained (false: it closed or failed first, and nothing more can be written). */
async function drained(out: NodeJS.WritableStream): Promise<boolean> {
  const stream = out as NodeJS.WritableStream & { destroyed?: boolean };
  if (stream.destroyed) return false;
  const ac = new AbortController();
  try {
    const closed = once(out, 'close', { signal: ac.signal }).then(
      () => false,
      () => false,
    );
    // An error is the stream's own listeners' to report (EPIPE: the reader went away).
    const drain = once(out, 'drain', { signal: ac.signal }).then(
      () => true,
      () => false,
    );
    return await Promise.race([drain, closed]);
  } finally {
    ac.abort();
  }
}
