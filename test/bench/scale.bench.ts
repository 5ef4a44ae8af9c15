/**
 * What a change costs on a box of thousands of teams, against a box of ten (printed, never asserted).
 * For each box size (BENCH_SCALE_SIZES, default 10,2000,10000 teams; five of them at work, the rest
 * untouched for 40 days with their panes gone), the built tower runs twice, one after the other,
 * with no tmux server to poll: `tower watch`, and the control room in a 120×40 tmux pane. For each:
 *  - CPU per change: BENCH_CHANGES (20) rewrites of a task of the first working team, 500 ms
 *    apart; the process's CPU over that time (/proc, utime + stime) less its idle rate, per change;
 *  - idle: % of one core over BENCH_IDLE_SEC (default 125, so it holds one periodic full read);
 *  - RSS after the changes;
 *  - for the screen, change → screen: from the write until the new subject is on the screen
 *    (the screen is read every 5 ms).
 *  - for the screen, its setup after the first frame: CPU from the first frame until the process is
 *    at rest (three seconds in a row under 5 % of a core; the file watches made, the deferred reads
 *    done), goal ≤ 3 s;
 * BENCH_SCALE_ACTIVE teams of each box are at work (default 5): with all 10,000 at work, every team's
 * folders are watched. Goals printed beside the figures: idle ≤ 1 % of a core, change → screen ≤ 150 ms.
 * Then the ratios the targets name: a change on the biggest box / on the smallest (goal ≤ 2×, screen
 * and watch), and screen / watch on the smallest (goal ≤ 4×).
 */
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { tempDir } from '../helpers/box.js';
import { buildTeamsBox, touchTask } from '../helpers/teams-box.js';
import type { TeamsBox } from '../helpers/teams-box.js';
import { BenchTmux, median } from './ui-tmux.js';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10,2000,10000').split(',').map(Number);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const IDLE_SEC = Number(process.env.BENCH_IDLE_SEC ?? 125);
const GAP_MS = 500;
// After the first frame: the start's garbage and deferred reads are done before idle is measured.
const SETTLE_MS = 10_000;
const repo = path.resolve(import.meta.dirname, '..', '..');
const bin = process.env.BENCH_BIN ?? path.join(repo, 'bin', 'tower.js');
const TICK_MS = 1000 / 100; // /proc counts CPU in clock ticks of 10 ms (USER_HZ 100 on Linux)
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tag = crypto.randomBytes(3).toString('hex');
const tmux = new BenchTmux(`tower-bench-scale-${process.pid}-${tag}`);
// The socket tower polls: no server ever runs there.
const noServer = `tower-bench-none-${process.pid}-${tag}`;
const xdg = tempDir('tower-bench-xdg-');

/** utime+stime of a process in ms, and its resident memory in MB. */
function usage(pid: number): { cpuMs: number; rssMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuMs: (Number(f[11]) + Number(f[12])) * TICK_MS, rssMb: (Number(f[21]) * 4096) / 1024 / 1024 };
}

interface Figures {
  perChangeMs: number;
  idlePct: number;
  rssMb: number;
  latencyMs: number | null;
  /** CPU from the first frame until at rest (the screen only). */
  setupMs?: number;
}

/** CPU (ms) a process spends until it is at rest: three seconds in a row under 5 % of a core (at most two minutes). */
async function untilAtRest(pid: number): Promise<number> {
  const start = usage(pid).cpuMs;
  let last = start;
  let calm = 0;
  for (let s = 0; s < 120 && calm < 3; s++) {
    await sleep(1000);
    const now = usage(pid).cpuMs;
    calm = now - last < 50 ? calm + 1 : 0;
    last = now;
  }
  return last - start;
}

async function idleRate(pid: number): Promise<number> {
  const a = usage(pid).cpuMs;
  const t = performance.now();
  await sleep(IDLE_SEC * 1000);
  return (usage(pid).cpuMs - a) / (performance.now() - t);
}

/** Makes the changes; `seen(subject)` resolves when the change is visible (or at once). */
async function changes(
  box: TeamsBox,
  pid: number,
  idle: number,
  seen: (subject: string, t0: number) => Promise<number | null>,
): Promise<{ perChangeMs: number; latencies: number[] }> {
  const latencies: number[] = [];
  const a = usage(pid).cpuMs;
  const t = performance.now();
  for (let i = 0; i < CHANGES; i++) {
    const subject = `changed ${i} ${crypto.randomBytes(4).toString('hex')}`;
    const t0 = performance.now();
    touchTask(box, box.active[0] as string, subject);
    const ms = await seen(subject, t0);
    if (ms !== null) latencies.push(ms);
    await sleep(Math.max(0, GAP_MS - (performance.now() - t0)));
  }
  await sleep(GAP_MS);
  const wall = performance.now() - t;
  return { perChangeMs: (usage(pid).cpuMs - a - idle * wall) / CHANGES, latencies };
}

function flags(box: TeamsBox): string[] {
  return ['--claude-dir', box.claudeDir, '-L', noServer];
}

const env = { ...process.env, XDG_CONFIG_HOME: `${xdg}/config`, XDG_STATE_HOME: `${xdg}/state`, HOME: xdg };

async function measureWatch(box: TeamsBox): Promise<Figures> {
  const child = spawn(process.execPath, [bin, 'watch', ...flags(box)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', () => {});
  try {
    // Ready when the first snapshot's lines have come and a second went by without more.
    const t0 = performance.now();
    while (out === '' && performance.now() - t0 < 120_000) await sleep(50);
    let last = -1;
    while (out.length !== last) {
      last = out.length;
      await sleep(1000);
    }
    await sleep(SETTLE_MS);
    const pid = child.pid as number;
    const idle = await idleRate(pid);
    const { perChangeMs } = await changes(box, pid, idle, () => Promise.resolve(null));
    return { perChangeMs, idlePct: idle * 100, rssMb: usage(pid).rssMb, latencyMs: null };
  } finally {
    child.kill();
  }
}

async function measureScreen(box: TeamsBox): Promise<Figures> {
  const vars = Object.entries({
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
    XDG_STATE_HOME: env.XDG_STATE_HOME,
    HOME: env.HOME,
  }).map(([k, v]) => quote(`${k}=${v}`));
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars.join(' ')} node ${quote(bin)} ${flags(box).map(quote).join(' ')}; sleep 100000`;
  // Ready when the first working team is selected and its task table is drawn.
  const first = tmux.timeUntil(command, new RegExp(`> claude +${box.active[0]}[\\s\\S]*Tasks · 4`), 180_000);
  try {
    const pid = tmux.nodePid(first.pane);
    const setupMs = await untilAtRest(pid);
    await sleep(SETTLE_MS);
    const idle = await idleRate(pid);
    const { perChangeMs, latencies } = await changes(box, pid, idle, async (subject, t0) => {
      for (;;) {
        if (tmux.screen(first.pane).includes(subject)) return performance.now() - t0;
        if (performance.now() - t0 > 5000) return null;
        await sleep(5);
      }
    });
    return {
      perChangeMs,
      idlePct: idle * 100,
      rssMb: usage(pid).rssMb,
      latencyMs: latencies.length ? median(latencies) : null,
      setupMs,
    };
  } finally {
    tmux.run('kill-session', '-t', first.pane);
  }
}

const results = new Map<number, { watch: Figures; screen: Figures }>();
const fmt = (f: Figures) =>
  `${f.perChangeMs.toFixed(1).padStart(6)} ms CPU per change, idle ${f.idlePct.toFixed(2)} % of a core (goal ≤ 1 %), RSS ${f.rssMb.toFixed(0)} MB` +
  (f.latencyMs === null ? '' : `, change → screen median ${f.latencyMs.toFixed(0)} ms (goal ≤ 150 ms)`) +
  (f.setupMs === undefined
    ? ''
    : `, setup after the first frame ${(f.setupMs / 1000).toFixed(1)} s of CPU (goal ≤ 3 s)`);
try {
  for (const size of SIZES) {
    const t = performance.now();
    const box = buildTeamsBox({ teams: size, active: Number(process.env.BENCH_SCALE_ACTIVE ?? 5) });
    console.log(
      `box of ${size} teams (${box.active.length} at work), written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    try {
      const watch = await measureWatch(box);
      console.log(`  tower watch  ${fmt(watch)}`);
      const screen = await measureScreen(box);
      console.log(`  the screen   ${fmt(screen)}`);
      results.set(size, { watch, screen });
    } finally {
      box.remove();
    }
  }
  const small = results.get(Math.min(...SIZES));
  const big = results.get(Math.max(...SIZES));
  if (small && big && SIZES.length > 1) {
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(
      `a change on ${Math.max(...SIZES)} teams / on ${Math.min(...SIZES)}: screen ${ratio(big.screen.perChangeMs, small.screen.perChangeMs)}, watch ${ratio(big.watch.perChangeMs, small.watch.perChangeMs)} (goal ≤ 2×)`,
    );
  }
  if (small)
    console.log(
      `on ${Math.min(...SIZES)} teams, a change costs the screen ${(small.screen.perChangeMs / small.watch.perChangeMs).toFixed(2)}× what it costs watch (goal ≤ 4×)`,
    );
  console.log(
    `(load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores)`,
  );
} finally {
  tmux.kill();
  fs.rmSync(xdg, { recursive: true, force: true });
}
