/**
 * A reviewer: over time it gives verdicts on completed tasks, written into the tina supervisor
 * state as `phases["N"].review_verdicts["<taskId>"] = {spec_review, quality_review, worker}`.
 * The spec reviewer goes first; the code-quality reviewer reviews what passed spec review. With
 * `--task ID` the reviewer fails that task once, then passes it on a later look (after the fix).
 */
import path from 'node:path';
import { takeLines } from './lines.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';
import { readTasks } from './tasks.js';

type Verdict = 'passed' | 'failed' | 'pending';

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Starts the reviewer loop. */
export function runReviewer(rt: AgentRuntime): void {
  const { state, tasks: tasksDir, phase = '1', task: failOnce } = rt.opts;
  if (!state || !tasksDir) throw new Error('reviewer needs --state and --tasks');
  const kind = rt.opts.kind === 'quality' ? 'quality' : 'spec';
  const key = kind === 'spec' ? 'spec_review' : 'quality_review';
  const label = kind === 'spec' ? 'spec review' : 'code-quality review';
  const stateFile = path.join(state, 'supervisor-state.json');
  const failedAt = new Map<string, number>();
  let ticks = 0;
  let warned = false;

  rt.print(style.bold(rt.opts.name) + style.dim(` · ${label} · phase ${phase}`));
  takeLines(rt, () => true);

  const tick = () => {
    ticks++;
    const sup = rt.readObject(stateFile);
    if (!sup) {
      if (!warned) rt.print(style.amber('supervisor-state.json is missing or unreadable; waiting'));
      warned = true;
      return;
    }
    warned = false;
    const phases = asObject(sup.phases);
    const ph = asObject(phases[phase]);
    const verdicts = asObject(ph.review_verdicts);
    const done = readTasks(rt, tasksDir).filter((t) => t.status === 'completed');

    const target = done.find((t) => {
      const v = asObject(verdicts[t.id]);
      if (kind === 'quality' && v.spec_review !== 'passed') return false;
      if (v[key] === 'failed') return ticks - (failedAt.get(t.id) ?? ticks) >= 2;
      return v[key] === undefined || v[key] === 'pending';
    });
    if (!target) return;

    const before = asObject(verdicts[target.id]);
    const verdict: Verdict = target.id === failOnce && !failedAt.has(target.id) ? 'failed' : 'passed';
    if (verdict === 'failed') failedAt.set(target.id, ticks);
    const entry = {
      spec_review: 'pending',
      quality_review: 'pending',
      ...before,
      [key]: verdict,
      worker: target.owner ?? (typeof before.worker === 'string' ? before.worker : null),
    };
    const next = {
      ...sup,
      phases: { ...phases, [phase]: { ...ph, review_verdicts: { ...verdicts, [target.id]: entry } } },
    };
    rt.writeJson(stateFile, next);
    if (verdict === 'failed') {
      rt.print(
        style.red(
          `✗ ${label} task ${target.id}: failed (price rounding duplicated) → back to ${entry.worker ?? 'its worker'}`,
        ),
      );
    } else {
      const again = before[key] === 'failed' ? ' (after fix)' : '';
      rt.print(style.green(`✓ ${label} task ${target.id}: passed${again}`) + style.dim(` · ${target.subject}`));
    }
  };

  // Both reviewers rewrite the same supervisor-state.json: share a lock with everyone who does.
  rt.every(6000, 9000, () => rt.withLock(stateFile, tick), 2500 + Math.random() * 2000);
}
