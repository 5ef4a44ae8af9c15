/**
 * One orchestrator decision line of the harness's `logs/run.log`, in the forms the main loop logs
 * (Papercusp/papercusp-app, libs/papercusp/packages/orchestrator): a single decision
 * `ORCH decision: <VERB> [<arg>] [N=<k>] (role=<role>)`, or a batch
 * `ORCH batch (<n> decisions, role=<role>): <VERB> <arg> | <VERB> <arg> …`. The `(role=…)`
 * suffix says which role decided; it is no part of the reason. Pure.
 */
import { sanitizeLine } from '../../text/sanitize.js';

/** A decision read from one log line. */
export interface DecisionLine {
  /** The verb, upper-cased: NEXT_WORKER, ESCALATE, DONE, CHECKPOINT, ... (a batch: its first verb). */
  verb: string;
  /** What follows the verb, without the role suffix (a batch: every decision, joined by " | "). */
  rest: string;
  /** The deciding role (`orchestrator`, …), when the line names one. */
  role: string | null;
  /** The decisions of a batch line, each `<VERB> <arg>`; null for a single decision. */
  batch: string[] | null;
}

const SINGLE = /ORCH decision:\s*([A-Za-z_][A-Za-z0-9_-]*)(.*)$/s;
const BATCH = /ORCH batch\s*\(([^)]*)\)\s*:?\s*(.*)$/s;
const ROLE_SUFFIX = /\s*\(role=([^)]*)\)\s*$/;

function roleIn(inside: string): string | null {
  const m = /role=([^,)]*)/.exec(inside);
  const role = m?.[1]?.trim() ?? '';
  return role === '' ? null : role;
}

/** The decision on a log line (already one line), or null when it holds none. */
export function parseDecisionLine(raw: string): DecisionLine | null {
  const line = sanitizeLine(raw);
  const batch = BATCH.exec(line);
  if (batch) {
    const items = (batch[2] ?? '')
      .split('|')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const first = /^([A-Za-z_][A-Za-z0-9_-]*)/.exec(items[0] ?? '');
    if (!first) return null;
    return {
      verb: (first[1] ?? '').toUpperCase(),
      rest: items.join(' | '),
      role: roleIn(batch[1] ?? ''),
      batch: items,
    };
  }
  const single = SINGLE.exec(line);
  if (!single) return null;
  let rest = single[2] ?? '';
  const role = ROLE_SUFFIX.exec(rest);
  // Strip every trailing role suffix (a line logged twice over must not leave one in the reason).
  for (let m = role; m; m = ROLE_SUFFIX.exec(rest)) rest = rest.slice(0, m.index);
  // Separators people put between verb and reason: "ESCALATE: x", "ESCALATE — x", "ESCALATE - x".
  rest = rest.replace(/^[\s:—–-]+/, '').trim();
  const who = role?.[1]?.trim() ?? '';
  return { verb: (single[1] ?? '').toUpperCase(), rest, role: who === '' ? null : who, batch: null };
}

/**
 * Verbs that stop the run for a human: ESCALATE, and the deprecated CHECKPOINT, which current run
 * loops dispatch as ESCALATE ("CHECKPOINT verb received (deprecated) — treating as ESCALATE").
 */
export function isEscalation(verb: string): boolean {
  return verb === 'ESCALATE' || verb === 'CHECKPOINT';
}
