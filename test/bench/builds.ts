/**
 * Two or more builds of tower side by side, round by round so each sees the same load (what a
 * start-up device saves: build with and without it, scripts/build.js). For each build: the first
 * frame listing the runs on the fixture box in a tmux pane, `tower status --json` on the fixture box
 * (its handoffs read) and on 50 runs × 200 tasks; next to the floors of the targets (bare node
 * printing a line; node reading and parsing the same files). Prints medians and ratios; asserts nothing.
 *
 *   node --import tsx test/bench/builds.ts [ROUNDS] /path/a/bin/tower.js /path/b/bin/tower.js …
 *
 * BENCH_QUICK=1: the first frame only (a device that only the screen loads).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildBigMachine } from '../helpers/big-machine.js';
import { buildBox, tempDir } from '../helpers/box.js';
import { BenchTmux, median } from './ui-tmux.js';

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 9;
const bins = args;
const quick = Boolean(process.env.BENCH_QUICK);
if (bins.length === 0) throw new Error('usage: builds.ts [ROUNDS] BIN…');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const tmux = new BenchTmux(`tower-bench-builds-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
const xdg = tempDir('tower-bench-xdg-');
const env = { ...process.env, XDG_CONFIG_HOME: path.join(xdg, 'config'), XDG_STATE_HOME: path.join(xdg, 'state') };
const LISTS_RUNS = /tower · \d+ runs?[\s\S]*Runs · \d+[\s\S]*q quit/;

function frame(bin: string, flags: string[]): number {
  const vars = [`XDG_CONFIG_HOME=${env.XDG_CONFIG_HOME}`, `XDG_STATE_HOME=${env.XDG_STATE_HOME}`].map(quote).join(' ');
  const t = tmux.timeUntil(
    `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars} node ${quote(bin)} ${[...flags, '-L', tmux.socket].map(quote).join(' ')}; sleep 100000`,
    LISTS_RUNS,
    60_000,
  );
  tmux.close(t.pane);
  return t.ms;
}

function bare(): number {
  const t = tmux.timeUntil(`node -e 'console.log(1)'; sleep 100000`, /^1$/m);
  tmux.close(t.pane);
  return t.ms;
}

function run(argv: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return performance.now() - t0;
}

const box = buildBox();
const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
try {
  const boxFlags = ['--claude-dir', box.claudeDir, ...box.roots.flatMap((r) => ['--root', r])];
  const bigFlags = ['--claude-dir', machine.claudeDir, ...machine.otherRoots.flatMap((r) => ['--root', r])];
  const floorArgs = [
    path.join(import.meta.dirname, 'status-floor.js'),
    machine.claudeDir,
    ...machine.tinaRoots,
    ...machine.otherRoots,
  ];
  const figures = bins.map(() => ({ frame: [] as number[], boxStatus: [] as number[], bigStatus: [] as number[] }));
  const floors = { frame: [] as number[], status: [] as number[] };
  for (const bin of bins) run([bin, 'status', '--json', ...bigFlags, '-L', tmux.socket]);
  for (let i = 0; i < rounds; i++) {
    floors.frame.push(bare());
    if (!quick) floors.status.push(run(floorArgs));
    bins.forEach((bin, b) => {
      figures[b]!.frame.push(frame(bin, boxFlags));
      if (quick) return;
      figures[b]!.boxStatus.push(run([bin, 'status', '--json', ...boxFlags, '-L', tmux.socket]));
      figures[b]!.bigStatus.push(run([bin, 'status', '--json', ...bigFlags, '-L', tmux.socket]));
    });
  }
  const ms = (xs: number[]) => (xs.length ? `${median(xs).toFixed(0).padStart(5)} ms` : '    - ');
  console.log(
    `medians of ${rounds} interleaved rounds; floors: bare node line ${ms(floors.frame)}, node reading the big machine ${ms(floors.status)}`,
  );
  console.log(
    'build                                      first frame (× bare)   status, fixture box   status, 10,000 tasks (× floor)',
  );
  bins.forEach((bin, b) => {
    const f = figures[b]!;
    const x = (a: number[], floor: number[]) => `(${(median(a) / median(floor)).toFixed(2)}×)`;
    console.log(
      `${path.relative(process.cwd(), bin).padEnd(42)} ${ms(f.frame)} ${x(f.frame, floors.frame)}    ${ms(f.boxStatus)}          ${ms(f.bigStatus)} ${x(f.bigStatus, floors.status)}`,
    );
  });
} finally {
  tmux.kill();
  box.remove();
  machine.remove();
  fs.rmSync(xdg, { recursive: true, force: true });
}
