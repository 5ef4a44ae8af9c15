/**
 * The control room's figures (printed, never asserted):
 * - time to first frame of `tower` in a tmux pane, next to a bare `node -e 'console.log(1)'` (goal: within 2×);
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
const bin = path.join(repo, 'bin', 'tower.js');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const tmux = new BenchTmux(`tower-bench-ui-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
const xdg = tempDir('tower-bench-xdg-');

/** The shell command that runs tower on `roots` (ink must not think it renders to a CI log). */
function towerCommand(flags: string[], env: string[] = []): string {
  const vars = [`XDG_CONFIG_HOME=${xdg}/config`, `XDG_STATE_HOME=${xdg}/state`, ...env].map(quote).join(' ');
  return `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars} node ${quote(bin)} ${[...flags, '-L', tmux.socket].map(quote).join(' ')}; sleep 100000`;
}

function firstFrame(flags: string[]): void {
  const bare: number[] = [];
  const frame: number[] = [];
  const live: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b = tmux.timeUntil(`node -e 'console.log(1)'; sleep 100000`, /^1$/m);
    bare.push(b.ms);
    tmux.run('kill-session', '-t', b.pane);
    const t0 = performance.now();
    const t = tmux.timeUntil(towerCommand(flags), /tower · /);
    frame.push(t.ms);
    for (let seen = false; ; ) {
      const s = tmux.screen(t.pane);
      if (!seen && s.includes('Runs · ')) {
        seen = true;
        live.push(performance.now() - t0);
      }
      if (/tower · \d+ runs?/.test(s)) {
        if (!seen) live.push(performance.now() - t0);
        break;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
    data.push(performance.now() - t0);
    tmux.run('kill-session', '-t', t.pane);
  }
  console.log(`first frame, ${ROUNDS} rounds in a 120×40 tmux pane (fixture box: 8 runs):`);
  console.log(`  node -e 'console.log(1)'   ${stats(bare)}`);
  console.log(`  tower, first frame         ${stats(frame)}  (${(median(frame) / median(bare)).toFixed(2)}× bare node; drawn before React loads)`);
  console.log(`  tower, first ink frame     ${stats(live)}  (${(median(live) / median(bare)).toFixed(2)}× bare node)`);
  console.log(`  tower, first frame of data ${stats(data)}  (${(median(data) / median(bare)).toFixed(2)}× bare node)`);
}

function keysInProcess(): void {
  console.log('keypress → frame, 10,000 tasks in one run, task table focused, 120×40, in-process:');
  for (const nodeEnv of ['development', 'production']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'ui-keys.ts'), '10000', '200'], {
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: nodeEnv },
      cwd: repo,
    });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { react: string; move: string; pageDown: string };
    console.log(`  React ${r.react.padEnd(11)} j/k: ${r.move}; PgDn: ${r.pageDown}`);
  }
}

function bigMachine(): void {
  const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
  try {
    const flags = ['--claude-dir', machine.claudeDir, ...[...machine.tinaRoots, ...machine.otherRoots].flatMap((r) => ['--root', r])];
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
      console.log(`  first frame of data ${t.ms.toFixed(0)} ms; RSS settled ${settled?.toFixed(1) ?? '?'} MB, after 40 keys ${after?.toFixed(1) ?? '?'} MB`);
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
    firstFrame(['--claude-dir', box.claudeDir, ...box.roots.flatMap((r) => ['--root', r])]);
  } finally {
    box.remove();
  }
  keysInProcess();
  bigMachine();
} finally {
  tmux.kill();
  fs.rmSync(xdg, { recursive: true, force: true });
}
