/**
 * `tower status --json` on a big machine: 50 tina runs each merging a Claude team of 200 task
 * files (10,000 tasks), plus harness, SAGE and dotagent runs, with a live private tmux server.
 * Prints min / median / max wall time of 20 runs, next to the floor measured in the same rounds: a
 * bare node script reading and parsing the same files (status-floor.js), and `node -e 0`. Goal: the
 * median within 1.3× of the floor's. Then the same on a box of BENCH_TEAMS (10,000) Claude teams,
 * most of them ended (test/helpers/teams-box.ts), with fewer rounds.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildBigMachine } from '../helpers/big-machine.js';
import { buildTeamsBox } from '../helpers/teams-box.js';
import { tempDir } from '../helpers/box.js';
import { startTmux } from '../helpers/tmux.js';

const ROUNDS = 20;
const TEAM_ROUNDS = 11;
const repo = path.resolve(import.meta.dirname, '..', '..');
// BENCH_BIN: another build of tower to measure (the figures before a change, say).
const bin = process.env.BENCH_BIN ?? path.join(repo, 'bin', 'tower.js');

function median(ms: number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return `min ${s[0]!.toFixed(0)} ms, median ${median.toFixed(0)} ms, max ${s[s.length - 1]!.toFixed(0)} ms`;
}

/** Wall time of one run; stdout through a pipe (as a script reads it), or straight to /dev/null. */
function time(args: string[], env: NodeJS.ProcessEnv, toDevNull = false): { ms: number; stdout: string } {
  const devNull = toDevNull ? fs.openSync('/dev/null', 'w') : null;
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', devNull ?? 'pipe', 'pipe'],
  });
  if (devNull !== null) fs.closeSync(devNull);
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
const tmux = await startTmux();
const xdg = tempDir('tower-xdg-');
try {
  // Panes sitting in some of the projects, as on a real box (their team members' panes are dead).
  for (const root of machine.tinaRoots.slice(0, 5)) await tmux.newSession(path.basename(root), root);
  const env = { ...process.env, XDG_CONFIG_HOME: xdg };
  const args = [
    bin,
    'status',
    '--json',
    '--claude-dir',
    machine.claudeDir,
    '-L',
    tmux.name,
    ...machine.otherRoots.flatMap((r) => ['--root', r]),
  ];

  const warm = time(args, env);
  const snapshot = JSON.parse(warm.stdout) as { runs: { tasks: unknown[] }[]; problems: unknown[] };
  const tasks = snapshot.runs.reduce((n, r) => n + r.tasks.length, 0);
  console.log(
    `machine: ${snapshot.runs.length} runs, ${tasks} tasks (${machine.taskFiles} task files), output ${(warm.stdout.length / 1e6).toFixed(1)} MB, ${snapshot.problems.length} snapshot problems`,
  );

  const floorArgs = [
    path.join(import.meta.dirname, 'status-floor.js'),
    machine.claudeDir,
    ...machine.tinaRoots,
    ...machine.otherRoots,
  ];
  const read = JSON.parse(time(floorArgs, env).stdout) as { files: number; parsed: number };
  console.log(`floor: reads ${read.files} files, parses ${read.parsed} as JSON`);

  const piped: number[] = [];
  const devNull: number[] = [];
  const floor: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    piped.push(time(args, env).ms);
    devNull.push(time(args, env, true).ms);
    floor.push(time(floorArgs, env).ms);
    bare.push(time(['-e', '0'], env).ms);
  }
  console.log(`tower status --json, stdout read through a pipe (${ROUNDS} runs): ${stats(piped)}`);
  console.log(`tower status --json > /dev/null             (${ROUNDS} runs): ${stats(devNull)}`);
  console.log(`floor: node reading + parsing the same files  (${ROUNDS} runs): ${stats(floor)}`);
  console.log(`node -e 0                                   (${ROUNDS} runs): ${stats(bare)}`);
  console.log(`ratio of medians, piped / floor: ${(median(piped) / median(floor)).toFixed(2)}× (goal ≤ 1.3×)`);
  console.log(
    `(load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores)`,
  );

  const teams = Number(process.env.BENCH_TEAMS ?? 10_000);
  const box = buildTeamsBox({ teams });
  try {
    const teamArgs = [bin, 'status', '--json', '--claude-dir', box.claudeDir, '-L', tmux.name];
    const teamFloorArgs = [path.join(import.meta.dirname, 'status-floor.js'), box.claudeDir];
    const out = JSON.parse(time(teamArgs, env).stdout) as { runs: { ended?: boolean }[] };
    console.log(
      `box of ${teams} teams: ${out.runs.length} runs, ${out.runs.filter((r) => r.ended).length} of them ended`,
    );
    const t: number[] = [];
    const f: number[] = [];
    // The floor moves with the machine's other load: 11 interleaved rounds keep one slow round out of the medians.
    for (let i = 0; i < TEAM_ROUNDS; i++) {
      t.push(time(teamArgs, env).ms);
      f.push(time(teamFloorArgs, env).ms);
    }
    console.log(`tower status --json (${TEAM_ROUNDS} runs): ${stats(t)}`);
    console.log(`floor (${TEAM_ROUNDS} runs):               ${stats(f)}`);
    console.log(`ratio of medians, ${teams} teams: ${(median(t) / median(f)).toFixed(2)}× (goal ≤ 1.3×)`);
  } finally {
    box.remove();
  }
} finally {
  await tmux.kill();
  machine.remove();
  fs.rmSync(xdg, { recursive: true, force: true });
}
