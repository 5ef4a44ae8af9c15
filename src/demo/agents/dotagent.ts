/**
 * A dotagent workflow awaiting approval: a phase is complete but not in `user_checkpoints`. When
 * the approval is appended, the workflow moves to the next phase (atomically, keeping every field).
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

const ORDER = ['REQUIREMENTS', 'ARCHITECTURE', 'IMPLEMENTATION', 'VERIFICATION', 'REFLECTION'] as const;

function approvedPhases(phase: Record<string, unknown>): string[] {
  const list = Array.isArray(phase.user_checkpoints) ? phase.user_checkpoints : [];
  return list.map((c: unknown) => (typeof c === 'object' && c !== null ? (c as Record<string, unknown>).phase : null)).filter((p): p is string => typeof p === 'string');
}

/** Starts the dotagent pane. */
export function runDotagent(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  if (!stateDir) throw new Error('dotagent needs --state');
  const phaseFile = path.join(stateDir, 'phase.json');
  const first = rt.readObject(phaseFile);
  const waitingOn = typeof first?.current_phase === 'string' ? first.current_phase : 'ARCHITECTURE';

  rt.print(style.bold(`✻ ${rt.opts.title ?? 'dotagent workflow'}`));
  const done = Array.isArray(first?.completed_phases) ? (first.completed_phases as unknown[]) : [];
  for (const c of done) {
    const { phase, output } = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
    rt.print(style.green(`✓ ${String(phase)} complete`) + style.dim(` → ${String(output)}`));
  }
  rt.print(style.amber(`⏸ ${waitingOn} is complete: awaiting your approval before the next phase`));

  let resumed = false;
  rt.every(1000, 1000, () => {
    if (resumed) return;
    const phase = rt.readObject(phaseFile);
    if (!phase || !approvedPhases(phase).includes(waitingOn)) return;
    resumed = true;
    rt.print(style.green(`▶ ${waitingOn} approved`));
    const next = ORDER[ORDER.indexOf(waitingOn as (typeof ORDER)[number]) + 1];
    if (!next) return;
    rt.after(2000, () => {
      const current = rt.readObject(phaseFile);
      if (!current) return;
      rt.writeJson(phaseFile, { ...current, current_phase: next, phase_status: 'in_progress', last_updated: isoSeconds(Date.now()), interruption_safe: true });
      rt.writeJson(path.join(stateDir, 'execution.json'), {
        tasks: ['task-101', 'task-102', 'task-103', 'task-104'].map((id) => ({ id, status: 'pending', attempts: 0 })),
      });
      rt.print(`starting ${next}: 4 tasks queued`);
    });
  });
}
