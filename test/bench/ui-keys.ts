/**
 * Keypress → frame, measured in-process: the control room renders into a test terminal and a key's
 * bytes go into its stdin; the time is until ink has written the next frame. Run in a child process
 * per React build (development, as the bundle runs today, and production), since React picks its
 * build when first imported.
 *
 * Usage: node --import tsx test/bench/ui-keys.ts <tasks> <presses>
 */
import { performance } from 'node:perf_hooks';
import { createElement } from 'react';
import type { Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { ActivityStore } from '../../src/kit/activity.js';
import { ControlRoom } from '../../src/ui/app.js';
import { createManualClock } from '../../src/ui/clock.js';
import { RecordingActions, memoryStore, renderScreen } from '../ui/helpers.js';
import { fixtureSnapshot, harnessRun, member, task } from '../ui/fixtures.js';
import { median, stats } from './ui-tmux.js';

const tasks = Number(process.argv[2] ?? 10_000);
const presses = Number(process.argv[3] ?? 200);

const big: Run = {
  ...emptyRun('tina', 'big', '/w/big', '/w/big/.claude/tina'),
  status: 'running',
  phase: { current: '2', total: 3, status: 'executing' },
  members: [
    member('team-lead', { lead: true, paneId: '%1', state: 'alive' }),
    member('worker-1', { paneId: '%2', state: 'alive' }),
  ],
  tasks: Array.from({ length: tasks }, (_, i) =>
    task(String(i + 1), {
      subject: `Task ${i + 1} of the big run`,
      status: ['pending', 'in_progress', 'completed'][i % 3] ?? 'pending',
      owner: 'worker-1',
      blockedBy: i > 0 ? [String(i)] : [],
    }),
  ),
};
const store = memoryStore(fixtureSnapshot([big, harnessRun()]));
const screen = renderScreen(
  createElement(ControlRoom, {
    store,
    activity: new ActivityStore(),
    actions: new RecordingActions(),
    clock: createManualClock(Date.now()),
    color: true,
  }),
  120,
  40,
);

async function press(key: string): Promise<number> {
  const before = screen.stdout.frames.length;
  const t0 = performance.now();
  screen.stdin.write(key);
  while (screen.stdout.frames.length === before) await new Promise((r) => setImmediate(r));
  return performance.now() - t0;
}

await new Promise((r) => setTimeout(r, 200));
// Focus the task table (Tab until its title says it has the focus: the panes' order has moved
// before), then walk it; the first presses warm the JIT.
for (let i = 0; i < 10 && !screen.stdout.frames.at(-1)?.includes('[> Tasks'); i++) await press('\t');
if (!screen.stdout.frames.at(-1)?.includes('[> Tasks')) throw new Error('the task table never took the focus');
const times: number[] = [];
for (let i = 0; i < presses; i++) times.push(await press(i % 50 < 25 ? 'j' : 'k'));
const steady = times.slice(Math.floor(presses / 4));
const pageDown: number[] = [];
for (let i = 0; i < 20; i++) pageDown.push(await press('\u001b[6~'));
// One task rewritten in the selected run (its status toggled, so the task table's counts change
// on screen): the snapshot gets a new object for that run and keeps every other, as the live store does.
async function rewrite(n: number): Promise<number> {
  const before = screen.stdout.frames.length;
  const current = store.getSnapshot();
  const status = n % 2 === 0 ? 'completed' : 'pending';
  const runs = current.runs.map((r, i) =>
    i === 0 ? { ...r, tasks: r.tasks.map((t, k) => (k === 0 ? { ...t, status } : t)) } : r,
  );
  const t0 = performance.now();
  store.set({ ...current, runs });
  while (screen.stdout.frames.length === before) await new Promise((r) => setImmediate(r));
  return performance.now() - t0;
}
const rewrites: number[] = [];
for (let i = 0; i < 80; i++) rewrites.push(await rewrite(i));
screen.unmount();
console.log(
  JSON.stringify({
    react: process.env.NODE_ENV === 'production' ? 'production' : 'development',
    tasks,
    move: stats(steady),
    moveMedian: median(steady),
    pageDown: stats(pageDown),
    task: stats(rewrites.slice(20)),
  }),
);
process.exit(0);
