/**
 * A worker: every few seconds it moves one task along — picks up an unblocked pending task, works
 * on it for a tick or two, completes it — by rewriting the task file atomically, as Claude Code does.
 * With `--task ID` it never finishes that task (the stuck worker of the run that escalates). With
 * `--ask COMMAND` it first asks permission to run that command, and waits at the question until answered.
 */
import path from 'node:path';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';
import { askPermission } from './ask.js';
import { takeLines } from './lines.js';
import type { AgentTask } from './tasks.js';
import { isUnblocked, readTasks, writeTask } from './tasks.js';

/** A file a worker could be editing for a task, for the lines it prints. */
function fileFor(task: AgentTask): string {
  const slug = task.subject
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, 3)
    .join('-');
  return /\b(doc|docs|guide|readme|changelog)\b/i.test(task.subject) ? `docs/${slug}.md` : `src/${slug}.ts`;
}

/** Starts the worker loop. */
export function runWorker(rt: AgentRuntime): void {
  const dir = rt.opts.tasks;
  if (!dir) throw new Error('worker needs --tasks');
  const me = rt.opts.name;
  const stuckOn = rt.opts.task;
  const progress = new Map<string, number>();
  let lastIdle = '';

  rt.print(style.bold(`${me}`) + style.dim(` · ${path.basename(dir)} · implementer`));
  // Tasks already in progress when the demo starts are nearly done, so the board moves within seconds.
  for (const t of readTasks(rt, dir))
    if (t.status === 'in_progress' && t.owner === me && t.id !== stuckOn) progress.set(t.id, 2);

  const idle = (message: string) => {
    if (message !== lastIdle) rt.print(style.dim(message));
    lastIdle = message;
  };

  // Until the operator answers the question, the worker does nothing else (as Claude Code does).
  let asking: 'not yet' | 'waiting' | 'answered' = rt.opts.ask ? 'not yet' : 'answered';
  takeLines(rt, () => asking === 'answered');
  const tick = () => {
    if (asking === 'waiting') return;
    if (asking === 'not yet' && rt.opts.ask) {
      asking = 'waiting';
      void askPermission(rt, rt.opts.ask).then(() => {
        asking = 'answered';
      });
      return;
    }
    const tasks = readTasks(rt, dir);
    const mine = tasks.find((t) => t.status === 'in_progress' && t.owner === me);
    if (mine) {
      lastIdle = '';
      const step = (progress.get(mine.id) ?? 0) + 1;
      progress.set(mine.id, step);
      if (mine.id === stuckOn) {
        if (step <= 3) rt.print(style.red(`  tests failing on task ${mine.id}: 3 of 41 (attempt ${step}/3)`));
        else if (step === 4)
          rt.print(style.amber(`  task ${mine.id} still failing after 3 attempts · waiting for the lead`));
        return;
      }
      const file = fileFor(mine);
      if (step === 1) rt.print(`  editing ${file}`);
      else if (step === 2)
        rt.print(
          file.endsWith('.md')
            ? '  checking links: 0 broken'
            : `  running tests: ${20 + Number(mine.id.replace(/\D/g, '') || 1) * 3} passed`,
        );
      if (step < 3) return;
      writeTask(rt, mine, { status: 'completed' });
      rt.print(style.green(`✓ task ${mine.id} completed: ${mine.subject}`));
      return;
    }
    const next = tasks.find((t) => t.status === 'pending' && !t.owner && isUnblocked(t, tasks));
    if (next) {
      lastIdle = '';
      writeTask(rt, next, { status: 'in_progress', owner: me });
      rt.print(style.cyan(`→ task ${next.id} picked up: ${next.subject}`));
      return;
    }
    if (tasks.length > 0 && tasks.every((t) => t.status === 'completed')) idle('all tasks complete · idle');
    else idle('waiting: no unblocked task');
  };

  // Workers of one team share a lock, so two of them never claim the same task.
  rt.every(5000, 10000, () => rt.withLock(dir, tick), 1500 + Math.random() * 3000);
}
