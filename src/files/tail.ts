/**
 * The end of a log file, read without loading the rest: logs (the harness's run.log, SAGE's
 * orchestrator log) grow without bound, and only their last lines matter.
 */
import fs from 'node:fs';
import type { Problem } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';

/** How much of the end of a log is read. */
export const LOG_TAIL_BYTES = 64 * 1024;

/** The end of a log file and when it was last written. */
export interface LogTail {
  text: string;
  mtimeMs: number;
  /** Whether the file is longer than what was read. */
  partial: boolean;
}

export type TailRead = { ok: true; value: LogTail } | { ok: false; problem: Problem };

/**
 * Reads at most `maxBytes` from the end of `file` without loading the rest. When the read starts
 * mid-file the first (cut) line is dropped, so every line returned is whole.
 */
export function readLogTail(file: string, maxBytes = LOG_TAIL_BYTES): TailRead {
  let fd: number | null = null;
  try {
    // Check before opening: opening a FIFO named run.log would block until someone writes to it.
    if (!fs.statSync(file).isFile()) return { ok: false, problem: { file, message: 'not a regular file' } };
    fd = fs.openSync(file, 'r');
    const st = fs.fstatSync(fd);
    const start = Math.max(0, st.size - maxBytes);
    const buf = Buffer.alloc(st.size - start);
    let filled = 0;
    while (filled < buf.length) {
      const n = fs.readSync(fd, buf, filled, buf.length - filled, start + filled);
      if (n === 0) break; // the file shrank under us: use what we have
      filled += n;
    }
    let text = buf.subarray(0, filled).toString('utf8');
    if (start > 0) {
      const nl = text.indexOf('\n');
      if (nl >= 0) text = text.slice(nl + 1);
    }
    return { ok: true, value: { text, mtimeMs: st.mtimeMs, partial: start > 0 } };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message =
      e?.code === 'ENOENT'
        ? 'file is missing'
        : e?.code === 'EISDIR'
          ? 'is a directory, expected a file'
          : sanitizeLine(e?.message ?? String(err));
    return { ok: false, problem: { file, message } };
  } finally {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // closing a read-only descriptor cannot lose data; nothing to report
      }
    }
  }
}
