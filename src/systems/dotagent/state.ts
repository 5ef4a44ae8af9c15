/**
 * dotagent's state files (seed 004), parsed without judging them: `memory/state/phase.json` and
 * `memory/state/execution.json`. Validation against the disk and the clock is dotagent-validate.ts.
 */
import type { Problem } from '../../model/model.js';
import { asText } from '../../text/sanitize.js';
import { cleanProblem, parseJson } from '../../files/read.js';
import { isObject, toMs } from '../../files/values.js';

/** The workflow's phases, in the order they run. */
export const DOTAGENT_PHASES = [
  'REQUIREMENTS',
  'ARCHITECTURE',
  'IMPLEMENTATION',
  'VERIFICATION',
  'REFLECTION',
] as const;
export type DotagentPhaseName = (typeof DOTAGENT_PHASES)[number];

export const PHASE_STATUSES = ['pending', 'in_progress', 'complete', 'failed'] as const;

/** A timestamp as written (sanitized text) and as epoch ms when it parses. */
export interface Stamp {
  raw: string | null;
  ms: number | null;
}

/** `phase.json`. */
export interface DotagentPhase {
  workflowId: string | null;
  startedAt: Stamp;
  lastUpdated: Stamp;
  currentPhase: string | null;
  phaseStatus: string | null;
  completed: { phase: string; completedAt: Stamp; output: string | null }[];
  approvals: { phase: string; approvedAt: Stamp }[];
  /** false means a write was cut off; null when the key is absent. */
  interruptionSafe: boolean | null;
}

/** One task of `execution.json`. Statuses are kept as written ("verified" occurs besides the documented ones). */
export interface DotagentTask {
  id: string;
  status: string;
  attempts: number | null;
  startedAt: Stamp;
  completedAt: Stamp;
  /** Output path, relative to the project root. */
  output: string | null;
  lastError: string | null;
  /** `failure_reason` of an abort report. */
  failureReason: string | null;
  retryStrategy: string | null;
}

export interface DotagentExecution {
  tasks: DotagentTask[];
}

function text(v: unknown): string | null {
  const t = asText(v);
  return t === null || t.trim() === '' ? null : t.trim();
}

/**
 * Epoch ms of an ISO date or epoch number. Strings must start like a date: the engine's lenient
 * Date.parse reads the schema placeholder "ISO-8601" as the year 8601.
 */
export function stampMs(v: unknown): number | null {
  if (typeof v === 'string' && !/^\s*(\d{4}-\d{2}-\d{2}(?:[T ]|\s*$)|\d+\s*$)/.test(v)) return null;
  return toMs(v);
}

function stamp(v: unknown): Stamp {
  return { raw: text(v), ms: stampMs(v) };
}

function list(v: unknown, key: string, file: string, problems: Problem[]): unknown[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  problems.push({ file, message: `\`${key}\` is not a list` });
  return [];
}

/**
 * The entries of the list `value[key]` that are objects naming a phase, with that phase; any other entry is a
 * problem.
 */
function phaseEntries(
  value: Record<string, unknown>,
  key: string,
  file: string,
  problems: Problem[],
): [string, Record<string, unknown>][] {
  const entries: [string, Record<string, unknown>][] = [];
  list(value[key], key, file, problems).forEach((c, i) => {
    const phase = isObject(c) ? text(c.phase) : null;
    if (isObject(c) && phase !== null) entries.push([phase, c]);
    else problems.push({ file, message: `${key}[${i}] names no phase` });
  });
  return entries;
}

/** Reads the parsed JSON of `phase.json`. */
export function parsePhaseState(value: unknown, file: string): { value: DotagentPhase | null; problems: Problem[] } {
  if (!isObject(value)) return { value: null, problems: [{ file, message: 'expected a JSON object' }] };
  const problems: Problem[] = [];
  const completed = phaseEntries(value, 'completed_phases', file, problems).map(([phase, c]) => ({
    phase,
    completedAt: stamp(c.completed_at),
    output: text(c.output),
  }));
  const approvals = phaseEntries(value, 'user_checkpoints', file, problems).map(([phase, c]) => ({
    phase,
    approvedAt: stamp(c.approved_at),
  }));
  const safe = value.interruption_safe;
  return {
    value: {
      workflowId: text(value.workflow_id),
      startedAt: stamp(value.started_at),
      lastUpdated: stamp(value.last_updated),
      currentPhase: text(value.current_phase),
      phaseStatus: text(value.phase_status),
      completed,
      approvals,
      interruptionSafe: typeof safe === 'boolean' ? safe : null,
    },
    problems,
  };
}

/** Reads the parsed JSON of `execution.json`; a task without an id is listed by position. */
export function parseExecutionState(
  value: unknown,
  file: string,
): { value: DotagentExecution | null; problems: Problem[] } {
  if (!isObject(value)) return { value: null, problems: [{ file, message: 'expected a JSON object' }] };
  const problems: Problem[] = [];
  const tasks: DotagentTask[] = [];
  list(value.tasks, 'tasks', file, problems).forEach((t, i) => {
    if (!isObject(t)) {
      problems.push({ file, message: `tasks[${i}] is not an object` });
      return;
    }
    let id = text(t.id);
    if (id === null) {
      problems.push({ file, message: `tasks[${i}] has no id` });
      id = `#${i + 1}`;
    }
    tasks.push({
      id,
      status: text(t.status) ?? 'unknown',
      attempts: typeof t.attempts === 'number' && Number.isFinite(t.attempts) ? t.attempts : null,
      startedAt: stamp(t.started_at),
      completedAt: stamp(t.completed_at),
      output: text(t.output),
      lastError: text(t.last_error),
      failureReason: text(t.failure_reason),
      retryStrategy: text(t.retry_strategy),
    });
  });
  return { value: { tasks }, problems };
}

/** `parsePhaseState` on raw text. */
export function parsePhaseStateText(raw: string, file: string): { value: DotagentPhase | null; problems: Problem[] } {
  const json = parseJson(file, raw);
  return json.ok ? parsePhaseState(json.value, file) : { value: null, problems: [cleanProblem(json.problem)] };
}

/** `parseExecutionState` on raw text. */
export function parseExecutionStateText(
  raw: string,
  file: string,
): { value: DotagentExecution | null; problems: Problem[] } {
  const json = parseJson(file, raw);
  return json.ok ? parseExecutionState(json.value, file) : { value: null, problems: [cleanProblem(json.problem)] };
}

/** The position of a phase in the workflow, or -1 for a name dotagent does not use. */
export function phaseIndex(phase: string): number {
  return (DOTAGENT_PHASES as readonly string[]).indexOf(phase);
}
