/**
 * dotagent (seed 004): `memory/state/` in a project. Five phases; each finished phase waits for a
 * human approval recorded in `user_checkpoints`. When a phase completes, the checkpoint skill
 * appends it to `completed_phases` and ADVANCES `current_phase` to the next one (SKILL.md "On
 * Completion"), so the phases awaiting approval are the completed ones without an approval, never
 * the current phase. Archives under `.archive/` are history and ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Gate, Problem, Run, RunStatus, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { parseExecutionStateText, parsePhaseStateText } from './state.js';
import type { DotagentExecution, DotagentPhase } from './state.js';
import { validateDotagent } from './validate.js';
import { exists, isDir, mtimeMs } from '../../files/look.js';
import { readText } from '../../files/read.js';
import { toIso } from '../../files/values.js';
import type { ReadSettings } from '../types.js';

export {
  DOTAGENT_PHASES,
  parseExecutionState,
  parseExecutionStateText,
  parsePhaseState,
  parsePhaseStateText,
} from './state.js';
export type { DotagentExecution, DotagentPhase, DotagentTask } from './state.js';
export { validateDotagent } from './validate.js';

/** Reads one dotagent project: phase.json (required), execution.json (once implementation starts). */
export function readDotagentRun(root: string, stateDir: string, settings: ReadSettings): Run {
  const problems: Problem[] = [];
  const phaseFile = path.join(stateDir, 'phase.json');
  const executionFile = path.join(stateDir, 'execution.json');
  let phase: DotagentPhase | null = null;
  let exec: DotagentExecution | null = null;
  if (!isDir(stateDir)) {
    problems.push({ file: stateDir, message: 'state directory is missing' });
  } else {
    phase = readParsed(phaseFile, parsePhaseStateText, problems, true);
    exec = readParsed(executionFile, parseExecutionStateText, problems, false);
  }
  const checks = validateDotagent(phase, exec, {
    now: settings.now,
    phaseFile,
    executionFile,
    outputExists: (output) => exists(path.resolve(root, output)),
    live: workflowLive(root, [phaseFile, executionFile], settings),
  });
  problems.push(...checks.problems);

  const run = emptyRun(
    'dotagent',
    phase?.workflowId ?? (sanitizeLine(path.basename(root)) || 'dotagent'),
    root,
    stateDir,
  );
  run.problems = problems;
  run.warnings = checks.warnings;
  if (phase?.currentPhase)
    run.phase = { current: phase.currentPhase, total: 5, status: phase.phaseStatus ?? 'unknown' };
  run.gates = phase ? dotagentGates(phase, phaseFile) : [];
  run.tasks = exec ? exec.tasks.map(toTask) : [];
  run.status = dotagentStatus(phase, run.gates);
  return run;
}

function readParsed<T>(
  file: string,
  parse: (raw: string, file: string) => { value: T | null; problems: Problem[] },
  problems: Problem[],
  required: boolean,
): T | null {
  if (!exists(file)) {
    if (required) problems.push({ file, message: 'file is missing' });
    return null;
  }
  const raw = readText(file);
  if (!raw.ok) {
    problems.push({ file: sanitizeLine(file), message: sanitizeLine(raw.problem.message) });
    return null;
  }
  const parsed = parse(raw.value, file);
  problems.push(...parsed.problems);
  return parsed.value;
}

/** State changed this recently means someone is working on the workflow. */
export const LIVE_WITHIN_MS = 30 * 60_000;
/** A modification time this far ahead of now is a skewed clock, not a recent change. */
const CLOCK_SLACK_MS = 5 * 60_000;

function realOrSame(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function within(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether the workflow is live: a tmux pane sits in the project (its cwd is the root or below it),
 * or one of the state files changed in the last 30 minutes.
 */
export function workflowLive(root: string, stateFiles: readonly string[], settings: ReadSettings): boolean {
  const roots = [...new Set([path.resolve(root), realOrSame(root)])];
  if ((settings.paneCwds ?? []).some((cwd) => cwd !== '' && roots.some((r) => within(r, cwd)))) return true;
  return stateFiles.some((f) => {
    const m = mtimeMs(f);
    return m !== null && settings.now - m < LIVE_WITHIN_MS && m - settings.now < CLOCK_SLACK_MS;
  });
}

/**
 * Approval gates: every completed phase without a `user_checkpoints` entry is pending (usually just
 * the last one); every approved phase is granted. The current phase is never one: once a phase
 * completes, `current_phase` already names the next phase, which has not run yet.
 */
export function dotagentGates(p: DotagentPhase, phaseFile: string): Gate[] {
  const gates = new Map<string, Gate>();
  const approved = new Map(p.approvals.map((a) => [a.phase, a]));
  const awaiting = p.completed.map((c) => ({ phase: c.phase, since: toIso(c.completedAt.ms) }));
  for (const a of awaiting) {
    if (approved.has(a.phase) || gates.has(a.phase)) continue;
    gates.set(a.phase, {
      id: a.phase,
      kind: 'approval',
      state: 'pending',
      since: a.since,
      grantable: true,
      title: `${a.phase} complete — awaiting approval`,
      file: phaseFile,
    });
  }
  for (const a of p.approvals) {
    if (gates.has(a.phase)) continue;
    gates.set(a.phase, {
      id: a.phase,
      kind: 'approval',
      state: 'granted',
      since: toIso(a.approvedAt.ms),
      grantable: false,
      title: `${a.phase} approved`,
      file: phaseFile,
    });
  }
  return [...gates.values()];
}

/** The run status (first match wins): blocked, waiting, complete, running, idle; unknown without phase.json. */
export function dotagentStatus(p: DotagentPhase | null, gates: Gate[]): RunStatus {
  if (!p) return 'unknown';
  if (p.phaseStatus === 'failed') return 'blocked';
  if (gates.some((g) => g.state === 'pending')) return 'waiting';
  const reflected =
    (p.currentPhase === 'REFLECTION' && p.phaseStatus === 'complete') ||
    p.completed.some((c) => c.phase === 'REFLECTION');
  if (reflected) return 'complete';
  if (p.phaseStatus === 'in_progress') return 'running';
  // `complete` with every completed phase approved: the next phase has not started yet.
  if (p.phaseStatus === 'pending' || p.phaseStatus === 'complete') return 'idle';
  return 'unknown';
}

function toTask(t: DotagentExecution['tasks'][number]): Task {
  return {
    id: t.id,
    subject: t.output ?? t.lastError ?? t.failureReason ?? t.id,
    status: t.status,
    owner: null,
    blockedBy: [],
  };
}
