/**
 * A file read like a log as it grows (a transcript, the hook events): its tail the first time, then
 * only what was appended, and its tail again when it shrank (rewritten or started afresh). Only
 * complete lines are handed out; a line cut by the first tail read is dropped. An unfinished line is
 * kept up to MAX_LINE_BYTES, then dropped and skipped to its newline: 240 MB written without one
 * took a follower that kept it all to a 257 MB heap, and at 512 MB the string could not be made.
 */
import fs from 'node:fs';

/** The longest line handed out; a longer one is skipped whole. */
export const MAX_LINE_BYTES = 1024 * 1024;

export interface FollowedLines {
  lines: string[];
  /** Whether this read started afresh (first read, or the file shrank): earlier lines are gone. */
  fresh: boolean;
  /** Lines longer than MAX_LINE_BYTES skipped by this read (counted when the skip begins). */
  skipped: number;
}

export class LineFollower {
  private offset = 0;
  private size = -1;
  private partial = '';
  private dropFirst = false;
  /** Inside a line found too long: everything up to its newline is dropped. */
  private skipping = false;

  /** `tailBytes`: what a fresh read takes from the end; `stepBytes`: the most one read takes. */
  constructor(
    readonly file: string,
    private readonly tailBytes: number,
    private readonly stepBytes: number,
  ) {}

  /** The complete lines appended since the last read; null when the file is missing or not a regular file. Never throws. */
  read(): FollowedLines | null {
    let size: number;
    try {
      const st = fs.statSync(this.file);
      if (!st.isFile()) return null;
      size = st.size;
    } catch {
      this.size = -1;
      return null;
    }
    const fresh = this.size < 0 || size < this.size;
    if (fresh) {
      this.offset = Math.max(0, size - this.tailBytes);
      this.partial = '';
      this.skipping = false;
      this.dropFirst = this.offset > 0;
    }
    this.size = size;
    if (size <= this.offset) return { lines: [], fresh, skipped: 0 };
    const to = Math.min(size, this.offset + this.stepBytes);
    let text: string;
    try {
      // O_NONBLOCK: a file swapped for a FIFO since the stat never holds the read.
      const fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        const buf = Buffer.allocUnsafe(to - this.offset);
        const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
        text = buf.toString('utf8', 0, n);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return null;
    }
    this.offset = to;
    let skipped = 0;
    if (this.skipping) {
      const nl = text.indexOf('\n');
      if (nl < 0) return { lines: [], fresh, skipped };
      text = text.slice(nl + 1);
      this.skipping = false;
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.dropFirst && lines.length > 0) {
      lines.shift();
      this.dropFirst = false;
    }
    if (Buffer.byteLength(this.partial) > MAX_LINE_BYTES) {
      this.partial = '';
      this.skipping = true;
      this.dropFirst = false;
      skipped++;
    }
    const kept = lines.filter((l) => l.length <= MAX_LINE_BYTES);
    return { lines: kept, fresh, skipped: skipped + lines.length - kept.length };
  }
}
