/**
 * The control room's figures (printed, never asserted):
 * - time to the first frame listing the runs, in a tmux pane, next to a bare `node -e 'console.log(1)'`
 *   (goal ≤ 2.0×), on the fixture box and on 50 runs × 200 tasks, and next to a previous build
 *   (BENCH_BASE_BIN=/path/to/bin/tower.js) timed in the same rounds;
 * - keypress → frame with 10,000 tasks (goal: < 50 ms), in-process, React development and production builds;
 * - keypress → screen change in tmux, and RSS, with 50 runs × 200 tasks (goal: < 150 MB).
 * Uses the built bin/tower.js (`npm run bench` builds first).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildBigMachine } from '../helpers/big-machine.js';
import { buildBox, tempDir } from '../helpers/box.js';
import { BenchTmux, median, rssMb, stats } from './ui-tmux.js';

const ROUNDS = 7;
const repo = path.resolve(import.meta.dirname, '..', '..');
// BENCH_BIN: another build of tower to measure (the figures before a change, say).
const bin = process.env.BENCH_BIN ?? path.join(repo, 'bin', 'tower.js');
// BENCH_BASE_BIN: a previous build, timed in the same rounds as the first frame (its ratio printed beside).
const baseBin = process.env.BENCH_BASE_BIN ?? null;
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const tmux = new BenchTmux(`tower-bench-ui-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
const xdg = tempDir('tower-bench-xdg-');

/** The shell command that runs tower on `roots` (ink must not think it renders to a CI log). */
function towerCommand(flags: string[], env: string[] = [], which = bin): string {
  const vars = [`XDG_CONFIG_HOME=${xdg}/config`, `XDG_STATE_HOME=${xdg}/state`, ...env].map(quote).join(' ');
  return `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars} node ${quote(which)} ${[...flags, '-L', tmux.socket].map(quote).join(' ')}; sleep 100000`;
}

/** The first frame that lists the runs: header with the count, the runs list and the footer. */
const LISTS_RUNS = /tower · \d+ runs?[\s\S]*Runs · \d+[\s\S]*q quit/;

/**
 * Time to the first frame listing the runs, next to a bare node printing a line, interleaved round
 * by round so both see the same load; prints medians and their ratio (goal: ≤ 2.0×).
 */
function firstFrame(label: string, flags: string[], rounds = ROUNDS): void {
  const bare: number[] = [];
  const frame: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = tmux.timeUntil(`node -e 'console.log(1)'; sleep 100000`, /^1$/m);
    bare.push(b.ms);
    tmux.close(b.pane);
    const t = tmux.timeUntil(towerCommand(flags), LISTS_RUNS, 60_000);
    frame.push(t.ms);
    tmux.close(t.pane);
    if (!baseBin) continue;
    const p = tmux.timeUntil(towerCommand(flags, [], baseBin), LISTS_RUNS, 60_000);
    base.push(p.ms);
    tmux.close(p.pane);
  }
  console.log(`first frame listing the runs, ${rounds} rounds in a 120×40 tmux pane (${label}):`);
  console.log(`  node -e 'console.log(1)'  ${stats(bare)}`);
  console.log(`  tower                     ${stats(frame)}`);
  console.log(`  ratio of medians          ${(median(frame) / median(bare)).toFixed(2)}× bare node (goal ≤ 2.0×)`);
  if (baseBin) {
    console.log(`  previous build            ${stats(base)}`);
    console.log(
      `  ratio of medians          ${(median(base) / median(bare)).toFixed(2)}× bare node; this build / previous ${(median(frame) / median(base)).toFixed(2)}×`,
    );
  }
}

function keysInProcess(): void {
  console.log('keypress → frame, 10,000 tasks in one run, task table focused, 120×40, in-process:');
  for (const nodeEnv of ['development', 'production']) {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'ui-keys.ts'), '10000', '200'],
      {
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: nodeEnv },
        cwd: repo,
      },
    );
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
      react: string;
      move: string;
      pageDown: string;
      task: string;
    };
    console.log(`  React ${r.react.padEnd(11)} j/k: ${r.move}; PgDn: ${r.pageDown}`);
    console.log(`  ${''.padEnd(17)} one task of the run rewritten: ${r.task}`);
  }
}

function bigMachine(): void {
  const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
  try {
    const flags = [
      '--claude-dir',
      machine.claudeDir,
      ...[...machine.tinaRoots, ...machine.otherRoots].flatMap((r) => ['--root', r]),
    ];
    firstFrame('50 runs × 200 tasks', flags, 5);
    for (const nodeEnv of ['development', 'production']) {
      const t = tmux.timeUntil(towerCommand(flags, [`NODE_ENV=${nodeEnv}`]), /tower · \d+ runs/, 60_000);
      const pid = tmux.nodePid(t.pane);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
      const settled = rssMb(pid);
      // Walk the runs list: each j changes the selected run, and with it every detail pane.
      const moves: number[] = [];
      for (let i = 0; i < 40; i++) {
        const before = tmux.screen(t.pane);
        const t0 = performance.now();
        tmux.run('send-keys', '-t', t.pane, i < 20 ? 'j' : 'k');
        while (tmux.screen(t.pane) === before && performance.now() - t0 < 2000) continue;
        moves.push(performance.now() - t0);
      }
      const after = rssMb(pid);
      const runs = /tower · (\d+) runs/.exec(tmux.screen(t.pane))?.[1];
      console.log(`50 runs × 200 tasks (${runs} runs on screen), React ${nodeEnv}:`);
      console.log(
        `  first frame of data ${t.ms.toFixed(0)} ms; RSS settled ${settled?.toFixed(1) ?? '?'} MB, after 40 keys ${after?.toFixed(1) ?? '?'} MB`,
      );
      console.log(`  j/k → screen changed (tmux, incl. capture-pane polling): ${stats(moves)}`);
      tmux.run('kill-session', '-t', t.pane);
    }
  } finally {
    machine.remove();
  }
}

try {
  const box = buildBox();
  try {
    firstFrame(`fixture box, ${box.roots.length} roots`, [
      '--claude-dir',
      box.claudeDir,
      ...box.roots.flatMap((r) => ['--root', r]),
    ]);
  } finally {
    box.remove();
  }
  // BENCH_QUICK=1: the first-frame figures only.
  if (!process.env.BENCH_QUICK) {
    keysInProcess();
    bigMachine();
  } else {
    const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
    try {
      firstFrame(
        '50 runs × 200 tasks',
        [
          '--claude-dir',
          machine.claudeDir,
          ...[...machine.tinaRoots, ...machine.otherRoots].flatMap((r) => ['--root', r]),
        ],
        5,
      );
    } finally {
      machine.remove();
    }
  }
} finally {
  tmux.kill();
  fs.rmSync(xdg, { recursive: true, force: true });
}
