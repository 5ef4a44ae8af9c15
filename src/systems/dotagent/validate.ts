/**
 * dotagent's resume validation (seed 004, "Validate State Integrity"), as findings on the run:
 * missing outputs, future timestamps, phases out of order, cut-off writes, stale state, orphaned tasks.
 * Pure: the disk is reached only through the `outputExists` callback.
 */
import type { Problem } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { DOTAGENT_PHASES, PHASE_STATUSES, phaseIndex } from './state.js';
import type { DotagentExecution, DotagentPhase, Stamp } from './state.js';

/** A timestamp this far ahead of now is in the future (clocks drift a little). */
export const FUTURE_SLACK_MS = 5 * 60_000;
/** State untouched this long is stale (seed 004, scenario 4). */
export const STALE_AFTER_MS = 7 * 24 * 60 * 60_000;

export interface ValidationContext {
  now: number;
  phaseFile: string;
  executionFile: string;
  /** Whether an output path (relative to the project root, as written) exists. */
  outputExists: (output: string) => boolean;
  /**
   * Whether the workflow is live (a pane in the project, or its state changed lately). The orphan
   * check is a resume-time check: while live, a running task with no output is being worked or retried.
   */
  live: boolean;
}

/** Every finding about the two files; `warnings` holds the one-line "stale" notice. */
export function validateDotagent(
  phase: DotagentPhase | null,
  exec: DotagentExecution | null,
  ctx: ValidationContext,
): { problems: Problem[]; warnings: string[] } {
  const problems: Problem[] = [];
  const warnings: string[] = [];
  if (phase) checkPhase(phase, ctx, problems, warnings);
  if (exec) checkTasks(exec, ctx, problems);
  return { problems, warnings };
}

function checkStamp(label: string, s: Stamp, file: string, now: number, problems: Problem[]): void {
  if (s.raw === null) return;
  if (s.ms === null) {
    problems.push({ file, message: `${label} is not a timestamp: "${s.raw.slice(0, 60)}"` });
  } else if (s.ms > now + FUTURE_SLACK_MS) {
    problems.push({ file, message: `${label} is in the future: ${s.raw.slice(0, 60)}` });
  }
}

function checkPhase(p: DotagentPhase, ctx: ValidationContext, problems: Problem[], warnings: string[]): void {
  const file = ctx.phaseFile;
  checkStamp('started_at', p.startedAt, file, ctx.now, problems);
  checkStamp('last_updated', p.lastUpdated, file, ctx.now, problems);
  p.completed.forEach((c) => checkStamp(`completed_at of ${c.phase}`, c.completedAt, file, ctx.now, problems));
  p.approvals.forEach((a) => checkStamp(`approved_at of ${a.phase}`, a.approvedAt, file, ctx.now, problems));

  if (p.currentPhase !== null && phaseIndex(p.currentPhase) < 0) {
    problems.push({
      file,
      message: `unknown current_phase "${p.currentPhase.slice(0, 60)}" (expected ${DOTAGENT_PHASES.join(', ')})`,
    });
  }
  if (p.phaseStatus !== null && !(PHASE_STATUSES as readonly string[]).includes(p.phaseStatus)) {
    problems.push({ file, message: `unknown phase_status "${p.phaseStatus.slice(0, 60)}"` });
  }

  // completed_phases must follow the workflow order, each phase once.
  let last = -1;
  for (const c of p.completed) {
    const i = phaseIndex(c.phase);
    if (i < 0) {
      problems.push({ file, message: `completed_phases names an unknown phase "${c.phase.slice(0, 60)}"` });
      continue;
    }
    if (i <= last) {
      problems.push({
        file,
        message: `phase sequence out of order: ${c.phase} completed after ${DOTAGENT_PHASES[last] ?? '?'}`,
      });
    }
    last = Math.max(last, i);
  }
  const current = p.currentPhase === null ? -1 : phaseIndex(p.currentPhase);
  if (current >= 0 && current < last) {
    problems.push({
      file,
      message:
        `phase sequence out of order: current_phase ${p.currentPhase} comes before completed ` +
        `${DOTAGENT_PHASES[last]}`,
    });
  }

  for (const c of p.completed) {
    if (c.output !== null && !ctx.outputExists(c.output)) {
      problems.push({ file, message: `output of ${c.phase} is missing: ${c.output}` });
    }
  }

  if (p.interruptionSafe === false) {
    problems.push({ file, message: 'interruption_safe is false: a write was cut off, the state may be half-updated' });
  }

  const ref = p.lastUpdated.ms ?? p.startedAt.ms;
  if (ref !== null && ctx.now - ref > STALE_AFTER_MS) {
    const days = Math.floor((ctx.now - ref) / 86_400_000);
    problems.push({ file, message: `state is stale: last updated ${days} days ago` });
    warnings.push(`stale: workflow state last updated ${days} days ago`);
  }
}

function checkTasks(exec: DotagentExecution, ctx: ValidationContext, problems: Problem[]): void {
  const file = ctx.executionFile;
  for (const t of exec.tasks) {
    const id = sanitizeLine(t.id).slice(0, 60);
    checkStamp(`started_at of ${id}`, t.startedAt, file, ctx.now, problems);
    checkStamp(`completed_at of ${id}`, t.completedAt, file, ctx.now, problems);
    if (t.status === 'running') {
      // Seed 004, scenario 1: running with no output means the subagent died mid-task, but only once
      // nothing is working on the workflow (error-recovery keeps retried tasks `running`).
      if (!ctx.live && (t.output === null || !ctx.outputExists(t.output))) {
        problems.push({ file, message: `task ${id} is running with no output (orphaned: the workflow is not live)` });
      }
    } else if (t.status !== 'pending' && t.output !== null && !ctx.outputExists(t.output)) {
      problems.push({ file, message: `output of task ${id} is missing: ${t.output}` });
    }
  }
}
