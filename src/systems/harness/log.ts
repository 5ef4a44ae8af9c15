/**
 * The harness orchestrator's `logs/run.log`: only its tail is read (the file grows without bound),
 * and only the last `ORCH decision: <VERB> ...` line matters to the control room.
 */
import fs from 'node:fs';
import type { Problem } from '../../model.js';
import { sanitizeLine } from '../../text.js';
import { toIso } from '../../files/read.js';

/** How much of the end of run.log is read. */
export const LOG_TAIL_BYTES = 64 * 1024;

/** The last orchestrator decision found in the log. */
export interface Decision {
  /** The decision verb, upper-cased: ESCALATE, CHECKPOINT, DONE, ... */
  verb: string;
  /** What follows the verb on the line (sanitized, may be empty). */
  rest: string;
  /** The line's own timestamp (ISO), when it starts with one. */
  at: string | null;
}

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
    const message = e?.code === 'ENOENT' ? 'file is missing' : e?.code === 'EISDIR' ? 'is a directory, expected a file' : sanitizeLine(e?.message ?? String(err));
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

const DECISION = /ORCH decision:\s*([A-Za-z_][A-Za-z0-9_-]*)(.*)$/s;
// A timestamp at the start of the line, bare or in brackets: 2026-05-08T12:00:00Z, [2026-05-08 12:00:00.123+02:00].
const LEADING_TIME = /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)\]?/;

/** Finds the last `ORCH decision:` line in log text (whole lines, as readLogTail returns them). */
export function parseRunLog(text: string, _file: string): { value: Decision | null; problems: Problem[] } {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    // Colour codes must not hide a decision, and CRLF logs end their lines in \r.
    const line = sanitizeLine(lines[i] ?? '');
    const m = DECISION.exec(line);
    if (!m) continue;
    const verb = (m[1] ?? '').toUpperCase();
    // Separators people put between verb and reason: "ESCALATE: x", "ESCALATE — x", "ESCALATE - x".
    const rest = (m[2] ?? '').replace(/^[\s:—–-]+/, '').trim();
    const t = LEADING_TIME.exec(line);
    return { value: { verb, rest, at: t ? toIso(t[1]) : null }, problems: [] };
  }
  return { value: null, problems: [] };
}
