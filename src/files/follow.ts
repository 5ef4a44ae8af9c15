/**
 * A file read like a log as it grows (a transcript, the hook events): its tail the first time, then
 * only what was appended, and its tail again when it shrank (rewritten or started afresh). Only
 * complete lines are handed out; a line cut by the first tail read is dropped. An unfinished line is
 * kept up to MAX_LINE_BYTES, then dropped and skipped to its newline at once (scanned in the same
 * read, not one step per read: 50 MB without a newline held the next event back 25 s): 240 MB written
 * without one took a follower that kept it all to a 257 MB heap, and at 512 MB the string could not be made.
 */
import fs from 'node:fs';

/** The longest line handed out; a longer one is skipped whole. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** What one read scans at most for the end of a skipped line (page-cache speed: well under a second). */
const MAX_SCAN_BYTES = 512 * 1024 * 1024;
const SCAN_CHUNK = 1024 * 1024;

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

  /**
   * The complete lines appended since the last read; null when the file is missing or not a regular file.
   * Never throws.
   */
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
    const out: string[] = [];
    let skipped = 0;
    try {
      // O_NONBLOCK: a file swapped for a FIFO since the stat never holds the read.
      const fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        // A line found too long in this read is passed in this read too: scan, then read on once.
        for (let pass = 0; pass < 2; pass++) {
          if (this.skipping && !this.scanToNewline(fd, size)) break;
          if (size <= this.offset) break;
          const to = Math.min(size, this.offset + this.stepBytes);
          const buf = Buffer.allocUnsafe(to - this.offset);
          const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
          this.offset = to;
          const lines = (this.partial + buf.toString('utf8', 0, n)).split('\n');
          this.partial = lines.pop() ?? '';
          if (this.dropFirst && lines.length > 0) {
            lines.shift();
            this.dropFirst = false;
          }
          const kept = lines.filter((l) => l.length <= MAX_LINE_BYTES);
          skipped += lines.length - kept.length;
          out.push(...kept);
          if (Buffer.byteLength(this.partial) <= MAX_LINE_BYTES) break;
          this.partial = '';
          this.skipping = true;
          this.dropFirst = false;
          skipped++;
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return null;
    }
    return { lines: out, fresh, skipped };
  }

  /**
   * Moves past the newline that ends the line being skipped, scanning bytes without making a
   * string (a 50 MB line is passed in tens of ms, not one step per read); false while none is found.
   */
  private scanToNewline(fd: number, size: number): boolean {
    const buf = Buffer.allocUnsafe(SCAN_CHUNK);
    const until = Math.min(size, this.offset + MAX_SCAN_BYTES);
    while (this.offset < until) {
      const n = fs.readSync(fd, buf, 0, Math.min(SCAN_CHUNK, until - this.offset), this.offset);
      if (n <= 0) return false;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        this.offset += nl + 1;
        this.skipping = false;
        return true;
      }
      this.offset += n;
    }
    return false;
  }
}
