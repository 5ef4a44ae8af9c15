/**
 * Splitting a byte stream into lines, linear in its length and with a bound on a line's size.
 * Node's readline splits lines too, but keeps any line whole however long it grows: a box that
 * sends one endless line would hold the operator's memory. This splitter scans each byte once
 * (a 100 MB line costs ~0.1 s, where appending and rescanning cost minutes) and drops a line past
 * the bound, saying so, and carries on with the next one.
 */

/** A full snapshot of a box of 10,000 teams is ~20 MB on one line; four times that is surely wrong. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface SplitterOptions {
  maxBytes?: number;
  /** Called once per line dropped for its length, as soon as it passes the bound (with its size so far). */
  onOverlong?: (bytes: number) => void;
}

/** A function to feed chunks to; `onLine` gets each complete line (without its newline). */
export function lineSplitter(
  onLine: (line: string) => void,
  opts: SplitterOptions = {},
): (chunk: Buffer | string) => void {
  const max = opts.maxBytes ?? MAX_LINE_BYTES;
  let parts: Buffer[] = [];
  let size = 0;
  let dropping = false;
  return (chunk) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start <= buf.length) {
      const nl = buf.indexOf(10, start);
      const end = nl < 0 ? buf.length : nl;
      if (!dropping && end > start) {
        if (size + (end - start) > max) {
          dropping = true;
          opts.onOverlong?.(size + (end - start));
          parts = [];
          size = 0;
        } else {
          parts.push(buf.subarray(start, end));
          size += end - start;
        }
      }
      if (nl < 0) return;
      if (dropping) dropping = false;
      else {
        const line = parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts, size).toString('utf8');
        parts = [];
        size = 0;
        onLine(line);
      }
      start = nl + 1;
    }
  };
}
