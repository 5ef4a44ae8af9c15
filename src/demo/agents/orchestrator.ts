/**
 * The tina orchestration lead: it watches its phases and reports, now and then, where the run
 * stands (the checkpoint cycle itself is left to tower).
 */
import path from 'node:path';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';
import { readTasks } from './tasks.js';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Starts the orchestrator pane. */
export function runOrchestrator(rt: AgentRuntime): void {
  const stateDir = rt.opts.state;
  if (!stateDir) throw new Error('orchestrator needs --state');
  rt.print(style.bold(`✻ ${rt.opts.title ?? 'tina orchestrator'}`));
  let last = '';

  const report = () => {
    const sup = rt.readObject(path.join(stateDir, 'supervisor-state.json'));
    if (!sup) {
      rt.print(style.amber('supervisor-state.json is missing or unreadable'));
      return;
    }
    const phase = String(sup.current_phase ?? '?');
    const status = asObject(asObject(sup.phases)[phase]).status ?? sup.status;
    const tasks = rt.opts.tasks ? readTasks(rt, rt.opts.tasks) : [];
    const done = tasks.filter((t) => t.status === 'completed').length;
    const ctx = rt.readObject(path.join(stateDir, 'context-metrics.json'))?.used_pct;
    const line =
      `phase ${phase}/${String(sup.total_phases ?? '?')} ${String(status)} · tasks ` +
      `${done}/${tasks.length} done · lead context ${typeof ctx === 'number' ? `${ctx}%` : '?'}`;
    if (line !== last) rt.print(style.dim(line));
    last = line;
  };
  report();
  rt.every(8000, 12000, report);
}
