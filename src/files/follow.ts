/**
 * A file read like a log as it grows (a transcript, the hook events): its tail the first time, then
 * only what was appended, and its tail again when it shrank (rewritten or started afresh). Only
 * complete lines are handed out; a line cut by the first tail read is dropped.
 */
import fs from 'node:fs';

export interface FollowedLines {
  lines: string[];
  /** Whether this read started afresh (first read, or the file shrank): earlier lines are gone. */
  fresh: boolean;
}

export class LineFollower {
  private offset = 0;
  private size = -1;
  private partial = '';
  private dropFirst = false;

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
      this.dropFirst = this.offset > 0;
    }
    this.size = size;
    if (size <= this.offset) return { lines: [], fresh };
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
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.dropFirst && lines.length > 0) {
      lines.shift();
      this.dropFirst = false;
    }
    return { lines, fresh };
  }
}
