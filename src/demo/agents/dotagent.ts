/**
 * A dotagent workflow awaiting approval: a phase is complete but not in `user_checkpoints`. On
 * completion dotagent has already advanced `current_phase` to the next phase (with
 * `phase_status: complete`); when the approval is appended, that next phase starts (atomically,
 * keeping every field).
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

const ORDER = ['REQUIREMENTS', 'ARCHITECTURE', 'IMPLEMENTATION', 'VERIFICATION', 'REFLECTION'] as const;

function phasesOf(list: unknown): string[] {
  const items = Array.isArray(list) ? list : [];
  return items
    .map((c: unknown) => (typeof c === 'object' && c !== null ? (c as Record<string, unknown>).phase : null))
    .filter((p): p is string => typeof p === 'string');
}

function approvedPhases(phase: Record<string, unknown>): string[] {
  return phasesOf(phase.user_checkpoints);
}

/** The completed phase still waiting for its approval: the last completed one without a `user_checkpoints` entry. */
function awaitingApproval(phase: Record<string, unknown> | null): string | null {
  if (!phase) return null;
  const approved = approvedPhases(phase);
  return (
    phasesOf(phase.completed_phases)
      .filter((p) => !approved.includes(p))
      .pop() ?? null
  );
}

/** Starts the dotagent pane. */
export function runDotagent(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  if (!stateDir) throw new Error('dotagent needs --state');
  const phaseFile = path.join(stateDir, 'phase.json');
  const first = rt.readObject(phaseFile);
  const waitingOn = awaitingApproval(first) ?? 'ARCHITECTURE';
  const next =
    typeof first?.current_phase === 'string' && first.current_phase !== waitingOn
      ? first.current_phase
      : ORDER[ORDER.indexOf(waitingOn as (typeof ORDER)[number]) + 1];

  rt.print(style.bold(`✻ ${rt.opts.title ?? 'dotagent workflow'}`));
  const done = Array.isArray(first?.completed_phases) ? (first.completed_phases as unknown[]) : [];
  for (const c of done) {
    const { phase, output } = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
    rt.print(style.green(`✓ ${String(phase)} complete`) + style.dim(` → ${String(output)}`));
  }
  rt.print(style.amber(`⏸ ${waitingOn} is complete: awaiting your approval before ${next ?? 'the end'}`));

  let resumed = false;
  rt.every(1000, 1000, () => {
    if (resumed) return;
    const phase = rt.readObject(phaseFile);
    if (!phase || !approvedPhases(phase).includes(waitingOn)) return;
    resumed = true;
    rt.print(style.green(`▶ ${waitingOn} approved`));
    if (!next) return;
    rt.after(2000, () => {
      const current = rt.readObject(phaseFile);
      if (!current) return;
      rt.writeJson(phaseFile, {
        ...current,
        current_phase: next,
        phase_status: 'in_progress',
        last_updated: isoSeconds(Date.now()),
        interruption_safe: true,
      });
      rt.writeJson(path.join(stateDir, 'execution.json'), {
        tasks: ['task-101', 'task-102', 'task-103', 'task-104'].map((id) => ({ id, status: 'pending', attempts: 0 })),
      });
      rt.print(`starting ${next}: 4 tasks queued`);
    });
  });
}
