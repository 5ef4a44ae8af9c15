/**
 * Many boxes in one tower: 20 simulated hosts × 50 harness runs, each host a `tower serve` behind
 * one private sshd (20 host entries in an ssh_config), all on this machine's cores. Prints, for the
 * real `tower` control room running in a private tmux server:
 *  - time until every host's runs are on the screen;
 *  - change-to-screen latency: a checkpoint opened on one host's box until the header counts it
 *    (median / p95 / max over BENCH_CHANGES changes, default 20; the screen is read every 20 ms);
 *  - the local tower process's own CPU (% of one core) and memory while idle for BENCH_IDLE_SEC (30).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import { tmuxSocketDir } from '../helpers/leftovers.js';
import { startSshLab } from '../helpers/sshd.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { procUsage } from './ui-tmux.js';

const HOSTS = Number(process.env.BENCH_HOSTS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const IDLE_SEC = Number(process.env.BENCH_IDLE_SEC ?? 30);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}

const cli = await buildCli();
const lab = await startSshLab(['sim']);
const dir = tempDir('tower-bench-hosts-');
const socket = uniqueSocketName();
const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { timeout: 10_000 });
const cleanup = async () => {
  await tmux('kill-server').catch(() => {});
  // tmux leaves its socket file behind.
  fs.rmSync(path.join(tmuxSocketDir(), socket), { force: true });
  lab.remove();
  cli.remove();
  fs.rmSync(dir, { recursive: true, force: true });
};

try {
  const sshConfig = path.join(dir, 'ssh_config');
  const base = fs.readFileSync(lab.sshConfig, 'utf8');
  const hosts: object[] = [];
  const aliases: string[] = [];
  for (let h = 1; h <= HOSTS; h++) {
    const name = `host-${String(h).padStart(2, '0')}`;
    const home = path.join(dir, name);
    const roots: string[] = [];
    for (let r = 1; r <= RUNS; r++) {
      const root = path.join(home, 'projects', `run-${String(r).padStart(2, '0')}`);
      writeFile(path.join(root, '.harness', 'config.json'), { checkpoints: { enabled: true, types: [] } });
      roots.push(root);
    }
    writeFile(path.join(home, 'config', 'tower', 'config.json'), { roots });
    fs.mkdirSync(path.join(home, 'claude'), { recursive: true });
    const env = `HOME=${home} XDG_STATE_HOME=${home}/state XDG_CONFIG_HOME=${home}/config`;
    hosts.push({
      name,
      destination: name,
      sshArgs: ['-F', sshConfig],
      tower: `${env} ${process.execPath} ${cli.bin} --claude-dir ${home}/claude -L ${socket}-${name}`,
    });
    aliases.push(base.replace('Host sim', `Host ${name}`));
  }
  fs.writeFileSync(sshConfig, aliases.join('\n'));
  const home = path.join(dir, 'local');
  writeFile(path.join(home, 'config.json'), { hosts, local: false, hostTimeoutSec: 60 });
  fs.mkdirSync(path.join(home, 'claude'), { recursive: true });

  const vars = `HOME=${home} XDG_STATE_HOME=${home}/state XDG_CONFIG_HOME=${home}/xdg CLAUDE_CONFIG_DIR=${home}/claude`;
  const started = performance.now();
  await tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-x',
    '160',
    '-y',
    '50',
    `exec env -u TMUX -u CI ${vars} ${process.execPath} ${cli.bin} --config ${home}/config.json -L ${socket}`,
  );
  const pid = Number((await tmux('display-message', '-p', '#{pane_pid}')).stdout.trim());
  const screen = async () => (await tmux('capture-pane', '-p')).stdout;
  const total = HOSTS * RUNS;
  await waitFor(async () => (await screen()).includes(`tower · ${total} runs`), 180_000, {
    intervalMs: 50,
    what: `${total} runs on screen`,
  });
  const allOn = performance.now() - started;
  console.log(`${HOSTS} hosts × ${RUNS} runs: every run on screen ${(allOn / 1000).toFixed(1)} s after start`);
  await pause(3000);

  const latencies: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const host = `host-${String((i % HOSTS) + 1).padStart(2, '0')}`;
    const file = path.join(
      dir,
      host,
      'projects',
      `run-${String((i % RUNS) + 1).padStart(2, '0')}`,
      '.harness',
      'checkpoint-bench.md',
    );
    const t0 = performance.now();
    writeFile(file, '# Checkpoint: bench (manual request)\n');
    await waitFor(async () => (await screen()).includes('1 needs you'), 10_000, {
      intervalMs: 20,
      what: 'the change on screen',
    });
    latencies.push(performance.now() - t0);
    fs.rmSync(file);
    await waitFor(async () => !(await screen()).includes('needs you'), 10_000, {
      intervalMs: 50,
      what: 'the change undone',
    });
    await pause(200);
  }
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `change-to-screen latency over ${CHANGES} changes: median ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, max ${ms(Math.max(...latencies))}`,
  );

  await pause(2000);
  const hz = Number((await execa('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
  const a = procUsage(pid);
  const t0 = performance.now();
  await pause(IDLE_SEC * 1000);
  const b = procUsage(pid);
  const secs = (performance.now() - t0) / 1000;
  const cpu = ((b.ticks - a.ticks) / hz / secs) * 100;
  console.log(
    `local tower idle for ${IDLE_SEC} s with ${HOSTS} hosts: CPU ${cpu.toFixed(2)}% of one core, RSS ${(b.rss / 1024 / 1024).toFixed(0)} MB`,
  );
} finally {
  await cleanup();
}
