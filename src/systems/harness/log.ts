/**
 * The harness orchestrator's `logs/run.log`: only its tail is read (the file grows without bound),
 * and only the last `ORCH decision: <VERB> ...` line matters to the control room.
 */
import type { Problem } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { toIso } from '../../files/values.js';
import { parseDecisionLine } from './decision.js';

/** How much of the end of run.log is read. */
export { LOG_TAIL_BYTES } from '../../files/tail.js';

/** The last orchestrator decision found in the log. */
export interface Decision {
  /** The decision verb, upper-cased: ESCALATE, CHECKPOINT, DONE, ... (a batch: its first verb). */
  verb: string;
  /** What follows the verb on the line, without the `(role=…)` suffix (sanitized, may be empty). */
  rest: string;
  /** The role that decided (`orchestrator`), when the line names one. */
  role: string | null;
  /** The decisions of an `ORCH batch` line; null for a single decision. */
  batch: string[] | null;
  /** The line's own timestamp (ISO), when it starts with one. */
  at: string | null;
}

export { readLogTail } from '../../files/tail.js';
export type { LogTail, TailRead } from '../../files/tail.js';

// A timestamp at the start of the line, bare or in brackets: 2026-05-08T12:00:00Z, [2026-05-08 12:00:00.123+02:00].
const LEADING_TIME = /^\s*\[?(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)\]?/;

/** Finds the last `ORCH decision:` or `ORCH batch` line in log text (whole lines, as readLogTail returns them). */
export function parseRunLog(text: string, _file: string): { value: Decision | null; problems: Problem[] } {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    // Colour codes must not hide a decision, and CRLF logs end their lines in \r.
    const line = sanitizeLine(lines[i] ?? '');
    const d = parseDecisionLine(line);
    if (!d) continue;
    const t = LEADING_TIME.exec(line);
    return { value: { ...d, at: t ? toIso(t[1]) : null }, problems: [] };
  }
  return { value: null, problems: [] };
}
