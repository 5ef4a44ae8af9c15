/**
 * A box of 100 Codex agents against a box of 100 Claude Code agents, side by side: the panes draw
 * what each real CLI drew (the captured fixtures: Codex 0.169.0 asking, Claude Code 2.1.332 asking)
 * and run a process each CLI's module tells by its argv (tmux names neither by its command). What
 * is timed: the first capture round over all 100 (capture, telling the CLI from /proc, loading its
 * module, reading screen and dialog), then rounds of a fresh watch (the CLI remembered, every screen
 * read again), and the snapshot overlay. Prints figures; asserts nothing on time.
 *
 *   node --import tsx test/bench/agents.bench.ts
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { emptyRun } from '../../src/model/model.js';
import type { Member } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { startTmux } from '../helpers/tmux.js';

const N = Number(process.env.BENCH_N ?? 100);
const ROUNDS = 5;
const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');
const BOXES = [
  { name: 'Codex', screen: path.join(FIXTURES, 'codex-0.169.0/screens/dialog.100x40.txt'), argv0: 'codex' },
  {
    name: 'Claude Code',
    screen: path.join(FIXTURES, 'claude-code-2.1.332/screens/bash-prompt.200x50.txt'),
    argv0: 'claude',
  },
] as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function box(b: (typeof BOXES)[number]): Promise<string> {
  const tmux = await startTmux();
  try {
    const panes: string[] = [];
    // `exec -a` names the process as the CLI's binary: tmux says `sleep`, /proc's argv says the CLI.
    const command = `cat '${b.screen}'; exec -a ${b.argv0} sleep 100000`;
    for (let i = 0; i < N; i++) panes.push(await tmux.newSession(`agent-${i}`, '/tmp', command));
    await new Promise((r) => setTimeout(r, 1500));
    const members: Member[] = panes.map((p, i) => ({
      name: `agent-${i}`,
      role: 'r',
      model: 'm',
      paneId: p,
      state: 'alive',
      lead: false,
    }));
    const run = { ...emptyRun('claude-team', 'box', '/tmp', null), members };
    let watch = new PaneWatch(tmux.client);
    let t0 = performance.now();
    await watch.round(panes, null);
    const first = performance.now() - t0;
    const again: number[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      watch = new PaneWatch(tmux.client);
      t0 = performance.now();
      await watch.round(panes, null);
      again.push(performance.now() - t0);
    }
    t0 = performance.now();
    const read = new ActivityOverlay(watch).apply(snapshotOf(run)).runs[0]!;
    const overlay = performance.now() - t0;
    const asking = read.members.filter((m) => m.prompt && m.agent !== undefined && m.agent !== 'unknown').length;
    const agents = new Set(read.members.map((m) => m.agent));
    return `${b.name.padEnd(11)} ×${N}: first round ${first.toFixed(0)} ms, later rounds median ${median(again).toFixed(0)} ms, overlay ${overlay.toFixed(1)} ms; ${asking} read asking, told as ${[...agents].join(', ')}`;
  } finally {
    await tmux.kill();
  }
}

for (const b of BOXES) console.log(await box(b));
