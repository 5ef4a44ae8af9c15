/**
 * Whether SAGE's human gate has been answered. The orchestrator (bin/orchestrate-v2.sh
 * `wait_for_resume_signal`) polls `.resume-signal`, logs what it read in
 * `.sage/logs/orchestrator-v2.log` and DELETES the file, whatever it said, while `.last_signal`
 * keeps saying HITL_REQUIRED until the next signal. So the gate is pending only while the signal
 * that raised it is newer than both any `.resume-signal` and the last answer in the log; an
 * answer written and not yet read shows the gate answered too. Pure: no disk access.
 */
import { sanitizeLine } from '../../text/sanitize.js';
import { loggedResume } from './signals.js';

/** The log the orchestrator keeps, relative to the project root. */
export const ORCHESTRATOR_LOG = '.sage/logs/orchestrator-v2.log';

/** An answer the orchestrator logged when it read (and deleted) `.resume-signal`. */
export interface LoggedAnswer {
  /**
   * What the orchestrator did with it: APPROVED, REVISE, DISCUSS or HALT (a word it does not know
   * goes on as APPROVED); null when the log was cut before it said.
   */
  status: string | null;
  /** What it read, when that says otherwise (`{"STATUS": "HALT", …}` from the webhook's JSON). */
  written?: string;
  /** The line's `date -Iseconds` time in epoch ms, when it parses. */
  atMs: number | null;
  /** The time as written. */
  at: string;
}

// [2026-05-08T12:30:17+00:00] [INFO] Resume status: APPROVED
const LINE = /^\[(\d{4}-\d{2}-\d{2}T[^\]]+)\]\s+\[[A-Z]+\]\s+(.*)$/;
const STATUS = /^Resume status:\s*(.*)$/;
const DETECTED = /^Resume signal detected!?\s*$/;

/** The last answer in the orchestrator's log text, or null when it logged none. */
export function lastLoggedAnswer(text: string): LoggedAnswer | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = LINE.exec(sanitizeLine(lines[i] ?? '').trim());
    if (!m) continue;
    const at = m[1] ?? '';
    const msg = (m[2] ?? '').trim();
    const status = STATUS.exec(msg);
    // "Resume signal detected!" comes first; a log cut right after it still means the file was read.
    if (!status && !DETECTED.test(msg)) continue;
    const ms = Date.parse(at);
    const atMs = Number.isNaN(ms) ? null : ms;
    if (!status) return { status: null, atMs, at };
    const read = loggedResume((status[1] ?? '').trim());
    return read.written === null
      ? { status: read.status, atMs, at }
      : { status: read.status, written: read.written, atMs, at };
  }
  return null;
}

/** An unread `.resume-signal`: its status and when it was written. */
export interface UnreadAnswer {
  status: string;
  mtimeMs: number;
}

/** Where the gate stands. */
export type GateAnswer =
  | { state: 'pending'; staleResume: UnreadAnswer | null }
  | { state: 'answered'; how: 'unread'; status: string; atMs: number }
  | { state: 'answered'; how: 'consumed'; status: string | null; written?: string; atMs: number; at: string };

/**
 * The gate raised at `raisedAtMs` (the signal's or state's mtime), given the unread answer file and
 * the last logged answer. Log times have whole seconds: an answer logged in the second the signal
 * was written counts as answering it (the orchestrator reads an answer only after the signal).
 */
export function gateAnswer(raisedAtMs: number, unread: UnreadAnswer | null, logged: LoggedAnswer | null): GateAnswer {
  if (unread && unread.mtimeMs >= raisedAtMs)
    return { state: 'answered', how: 'unread', status: unread.status, atMs: unread.mtimeMs };
  if (logged?.atMs != null && Math.floor(logged.atMs / 1000) >= Math.floor(raisedAtMs / 1000)) {
    const { status, written, atMs, at } = logged;
    return written === undefined
      ? { state: 'answered', how: 'consumed', status, atMs, at }
      : { state: 'answered', how: 'consumed', status, written, atMs, at };
  }
  return { state: 'pending', staleResume: unread };
}
