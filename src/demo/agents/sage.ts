/**
 * A SAGE epic run waiting at its human gate: it shows the signals SAGE prints and waits for
 * `.resume-signal`. On `STATUS: APPROVED` it resumes: the epic's next action becomes `continue`.
 */
import path from 'node:path';
import { isoSeconds } from '../files.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Starts the SAGE pane. */
export function runSage(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  const epicId = rt.opts.task ?? 'EPIC-001';
  if (!stateDir) throw new Error('sage needs --state');
  const epicFile = path.join(stateDir, `${epicId}.json`);
  const resumeFile = path.join(stateDir, '.resume-signal');
  const epic = rt.readObject(epicFile);
  const next = asObject(epic?.next_action);
  const commit = asObject(epic?.git).last_checkpoint_commit;

  rt.print(style.bold(`✻ ${rt.opts.title ?? `SAGE · ${epicId}`}`));
  rt.print('═══ SAGE_SIGNAL:CHECKPOINT ═══');
  rt.print(`CHECKPOINT_FILE: .sage/state/${epicId}.json`);
  rt.print(`COMMIT: ${typeof commit === 'string' ? commit : 'unknown'}`);
  rt.print(`NEXT_ACTION: ${typeof next.type === 'string' ? next.type : 'unknown'}`);
  rt.print('═══════════════════════════════');
  rt.print('SAGE_SIGNAL:HITL_REQUIRED');
  rt.print(style.amber(`⏸ waiting at the human gate: ${typeof next.description === 'string' ? next.description : 'approval needed'}`));
  rt.print(style.dim('  answer with STATUS: APPROVED | REVISE | DISCUSS | HALT in .sage/state/.resume-signal'));

  let answered = false;
  rt.every(1000, 1000, () => {
    if (answered) return;
    const text = rt.readText(resumeFile);
    const status = text ? /STATUS:\s*([A-Z]+)/.exec(text)?.[1] : undefined;
    if (!status) return;
    answered = true;
    rt.print(style.green(`▶ resume signal: STATUS: ${status}`));
    if (status !== 'APPROVED') {
      rt.print(style.dim(`  ${status.toLowerCase()}: the story goes back to the planner`));
      return;
    }
    rt.after(2000, () => {
      const current = rt.readObject(epicFile);
      if (!current) {
        rt.print(style.amber(`${epicId}.json is unreadable; not resuming`));
        return;
      }
      rt.writeJson(epicFile, {
        ...current,
        updated: isoSeconds(Date.now()),
        lifecycle: { phase: '3', phase_name: 'BUILD' },
        epic: { ...asObject(current.epic), status: 'in_progress' },
        next_action: { type: 'continue', description: 'Build story 3: proration for mid-cycle plan changes', subagent: null },
      });
      rt.writeText(path.join(stateDir, '.last_signal'), 'CHECKPOINT:WRITE\n');
      rt.print('SAGE_SIGNAL:CHECKPOINT:WRITE');
      rt.print('building story 3 · task 3 of 4');
    });
  });
}
