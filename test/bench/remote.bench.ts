/**
 * A change on another box against the same change on this box, on the screen (printed, never
 * asserted). One harness project; the built tower's control room runs in a private tmux server
 * twice: once reading the project here (`--root`), once reading it through a `tower serve` behind a
 * private sshd on 127.0.0.1 (`--no-local`, one host). Each time a checkpoint file is written
 * BENCH_CHANGES times (default 15) and the screen is read every 5 ms until the header counts it.
 * Prints the medians and their ratio (goal: remote ≤ 1.5× local), and the same at the store level
 * (the composite store's emit, no screen, always this checkout's), which is where ssh and the far
 * side's watch show alone. BENCH_BIN: another build of tower to put on the screen and the far side
 * (the figures before a change, say).
 *
 * The screen is read through one tmux control-mode client (control-screen.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { CompositeStore } from '../../src/remote/composite-store.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import { startSshLab } from '../helpers/sshd.js';
import { tmuxSocketDir } from '../helpers/leftovers.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { ControlScreen } from './control-screen.js';
import { median } from './ui-tmux.js';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 15);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const cli = process.env.BENCH_BIN ? { bin: path.resolve(process.env.BENCH_BIN), remove: () => {} } : await buildCli();
const lab = await startSshLab(['far']);
const dir = tempDir('tower-bench-remote-');
const socket = uniqueSocketName();
const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { timeout: 10_000 });

const root = path.join(dir, 'far', 'projects', 'app');
const checkpoint = path.join(root, '.harness', 'checkpoint-bench.md');
writeFile(path.join(root, '.harness', 'config.json'), { checkpoints: { enabled: true, types: [] } });
const farHome = path.join(dir, 'far');
fs.mkdirSync(path.join(farHome, 'claude'), { recursive: true });
const farTower = `HOME=${farHome} XDG_STATE_HOME=${farHome}/state XDG_CONFIG_HOME=${farHome}/config ${process.execPath} ${cli.bin} --claude-dir ${farHome}/claude --root ${root} -L ${socket}-far`;
const host = { name: 'far', destination: 'far', sshArgs: ['-F', lab.sshConfig], tower: farTower };

/** Medians of change → `seen()` over the changes. */
async function latencies(seen: () => Promise<boolean>, gone: () => Promise<boolean>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const t0 = performance.now();
    writeFile(checkpoint, '# Checkpoint: bench (manual request)\n');
    await waitFor(seen, 10_000, { intervalMs: 5, what: 'the change' });
    out.push(performance.now() - t0);
    fs.rmSync(checkpoint);
    await waitFor(gone, 10_000, { intervalMs: 20, what: 'the change undone' });
    await pause(300);
  }
  return out;
}

async function onScreen(looks: ControlScreen, label: string, config: object): Promise<number[]> {
  const home = path.join(dir, `local-${label}`);
  writeFile(path.join(home, 'config.json'), config);
  fs.mkdirSync(path.join(home, 'claude'), { recursive: true });
  const vars = `HOME=${home} XDG_STATE_HOME=${home}/state XDG_CONFIG_HOME=${home}/xdg CLAUDE_CONFIG_DIR=${home}/claude`;
  await tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    label,
    '-x',
    '120',
    '-y',
    '40',
    `exec env -u TMUX -u CI ${vars} ${process.execPath} ${cli.bin} --config ${home}/config.json -L ${socket}`,
  );
  const screen = () => looks.capture(label);
  await waitFor(async () => /tower · 1 run/.test(await screen()), 60_000, {
    intervalMs: 50,
    what: `${label}: the run on screen`,
  });
  await pause(2000);
  const ms = await latencies(
    async () => (await screen()).includes('1 needs you'),
    async () => !(await screen()).includes('needs you'),
  );
  await tmux('kill-session', '-t', label);
  return ms;
}

async function inStore(): Promise<number[]> {
  const store = new CompositeStore({
    hosts: [host],
    local: null,
    timeoutSec: 30,
    reconnect: false,
    reader: '/nonexistent/tower-reader.js',
  });
  await store.start();
  await pause(1000);
  const has = () =>
    store.getSnapshot().runs.some((r) => r.gates.some((g) => g.id === 'bench' && g.state === 'pending'));
  const ms = await latencies(
    async () => has(),
    async () => !has(),
  );
  await store.stop();
  return ms;
}

let looks: ControlScreen | null = null;
const fmt = (ms: number[]) =>
  `median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)})`;
try {
  await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'base', 'sleep 100000');
  looks = new ControlScreen(socket);
  const local = await onScreen(looks, 'here', { roots: [root], hosts: [], hostTimeoutSec: 60 });
  const remote = await onScreen(looks, 'there', { hosts: [host], local: false, hostTimeoutSec: 60 });
  const store = await inStore();
  console.log(`change → screen, the project read here:          ${fmt(local)}`);
  console.log(`change → screen, the project on another box:     ${fmt(remote)}`);
  console.log(`ratio of medians ${(median(remote) / median(local)).toFixed(2)}× (goal ≤ 1.5×)`);
  console.log(`change → the composite store's emit (ssh, no screen): ${fmt(store)}`);
} finally {
  looks?.close();
  await tmux('kill-server').catch(() => {});
  // A server that was already gone leaves its socket file behind.
  fs.rmSync(path.join(tmuxSocketDir(), socket), { force: true });
  lab.remove();
  cli.remove();
  fs.rmSync(dir, { recursive: true, force: true });
}
