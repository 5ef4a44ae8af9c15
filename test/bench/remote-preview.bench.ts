/**
 * The live preview, here and on another box, and what a fleet with a remote preview open costs
 * (printed, never asserted). The built tower's control room runs in a private tmux server:
 *  - here: a Claude team of this box whose lead's pane runs `tail -F` on a file; a marker line
 *    appended to the file until the screen's preview shows it (BENCH_MARKS times, default 9);
 *  - on another box: BENCH_HOSTS boxes (default 48) behind one private sshd (one ssh_config alias
 *    each), each a `tower serve` with BENCH_RUNS harness runs (default 2); box 1 has the same team,
 *    its lead's pane on that box's own tmux server; the screen previews it and the same is timed;
 *  - then the screen process's CPU (% of one core) and RSS while idle for BENCH_IDLE_SEC (default
 *    20) with that remote preview open, and while the previewed agent prints ten lines a second for
 *    BENCH_BUSY_SEC (default 10), with box 1's `tower serve` beside it (box 1 holds BENCH_TEAMS more
 *    teams, default 0, each with its lead alive in a pane that prints nothing: what the far side
 *    lays over for each line the previewed pane prints).
 * The screen is read every 5 ms through one control-mode client (control-screen.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import { tmuxSocketDir } from '../helpers/leftovers.js';
import { agentPane, writeCrew } from '../helpers/ssh-fleet.js';
import { startSshLab } from '../helpers/sshd.js';
import { newSessionPane, uniqueSocketName } from '../helpers/tmux.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { waitFor } from '../helpers/wait-for.js';
import { ControlScreen } from './control-screen.js';
import { median, procUsage } from './ui-tmux.js';

const HOSTS = Number(process.env.BENCH_HOSTS ?? 48);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const MARKS = Number(process.env.BENCH_MARKS ?? 9);
const IDLE_SEC = Number(process.env.BENCH_IDLE_SEC ?? 20);
const BUSY_SEC = Number(process.env.BENCH_BUSY_SEC ?? 10);
const TEAMS = Number(process.env.BENCH_TEAMS ?? 0);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pid of the `tower serve` whose command line names this tmux socket (the far side of a box), or null. */
function servePid(boxSocket: string): number | null {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const argv = cmd.split('\0');
    if (argv.includes(boxSocket) && argv.includes('serve') && !argv.includes('sh') && argv[0]?.endsWith('node'))
      return Number(entry);
  }
  return null;
}

const cli = await buildCli();
const lab = await startSshLab(['sim']);
const dir = tempDir('tower-bench-preview-');
const socket = uniqueSocketName();
const sockets = [socket];
const tmuxOn = (sock: string, ...args: string[]) => execa('tmux', ['-L', sock, ...args], { timeout: 10_000 });
const tmux = (...args: string[]) => tmuxOn(socket, ...args);

/** A team in `claudeDir` whose lead is a new pane on `sock` following `marks`. */
async function teamFollowing(sock: string, claudeDir: string, cwd: string, marks: string): Promise<void> {
  fs.writeFileSync(marks, '');
  writeCrew(claudeDir, cwd, [{ name: 'lead', pane: await agentPane(sock, cwd, `tail -n 0 -F ${marks}`) }]);
}

/** `n` teams in `claudeDir`, each with its lead alive in a pane of its own on `sock` that prints nothing. */
async function quietTeams(sock: string, claudeDir: string, cwd: string, n: number): Promise<void> {
  for (let t = 1; t <= n; t++) {
    const pane = await newSessionPane(new TmuxClient({ name: sock }), `quiet-${t}`, cwd);
    writeFile(path.join(claudeDir, 'teams', `quiet-${t}`, 'config.json'), {
      name: `quiet-${t}`,
      leadAgentId: 'lead',
      members: [{ name: 'lead', agentId: 'lead', agentType: 'team-lead', tmuxPaneId: pane, cwd }],
    });
  }
}

/** Appends marker lines to `marks`; the time until each is in the screen's preview. */
async function markLatencies(screen: () => Promise<string>, marks: string, tag: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < MARKS; i++) {
    const mark = `MARK-${tag}-${i}-${Math.random().toString(16).slice(2, 8)}`;
    const t0 = performance.now();
    fs.appendFileSync(marks, `${mark}\n`);
    await waitFor(async () => (await screen()).includes(mark), 10_000, { intervalMs: 5, what: mark });
    out.push(performance.now() - t0);
    await pause(400);
  }
  return out;
}

/** Starts the control room in session `label` with `config`; its pid. */
async function startScreen(label: string, home: string, config: object, cwd: string): Promise<number> {
  writeFile(path.join(home, 'config.json'), config);
  fs.mkdirSync(path.join(home, 'claude'), { recursive: true });
  const vars = `HOME=${home} XDG_STATE_HOME=${home}/state XDG_CONFIG_HOME=${home}/xdg`;
  const created = await tmux(
    'new-session',
    '-d',
    '-P',
    '-F',
    '#{pane_pid}',
    '-s',
    label,
    '-c',
    cwd,
    '-x',
    '160',
    '-y',
    '50',
    `exec env -u TMUX -u CI ${vars} ${process.execPath} ${cli.bin} --config ${home}/config.json --claude-dir ${home}/claude -L ${socket}`,
  );
  return Number(created.stdout.trim());
}

const fmt = (ms: number[]) =>
  `median ${median(ms).toFixed(0)} ms (min ${Math.min(...ms).toFixed(0)}, max ${Math.max(...ms).toFixed(0)}, ${ms.length} lines)`;
let looks: ControlScreen | null = null;
try {
  await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'base', '-c', dir, 'sleep 100000');
  looks = new ControlScreen(socket);

  // Here: the team's lead pane on the control room's own tmux server.
  const localHome = path.join(dir, 'local-here');
  fs.mkdirSync(path.join(localHome, 'claude'), { recursive: true });
  const localMarks = path.join(dir, 'marks-here.txt');
  await teamFollowing(socket, path.join(localHome, 'claude'), dir, localMarks);
  await startScreen('here', localHome, { hosts: [] }, dir);
  const here = () => looks!.capture('here');
  await waitFor(async () => /Preview · lead %\d+/.test(await here()), 60_000, { intervalMs: 50, what: 'the preview' });
  await pause(1500);
  const localMs = await markLatencies(here, localMarks, 'here');
  await tmux('kill-session', '-t', 'here');
  console.log(`a line printed → the preview, a pane of this box:        ${fmt(localMs)}`);

  // There: HOSTS boxes, box 1 with the team.
  const sshConfig = path.join(dir, 'ssh_config');
  const base = fs.readFileSync(lab.sshConfig, 'utf8');
  const hosts: object[] = [];
  const aliases: string[] = [];
  let remoteMarks = '';
  for (let h = 1; h <= HOSTS; h++) {
    const name = `box-${String(h).padStart(2, '0')}`;
    const home = path.join(dir, name);
    const roots: string[] = [];
    for (let r = 1; r <= RUNS; r++) {
      const root = path.join(home, 'projects', `run-${r}`);
      writeFile(path.join(root, '.harness', 'config.json'), { checkpoints: { enabled: true, types: [] } });
      roots.push(root);
    }
    writeFile(path.join(home, 'config', 'tower', 'config.json'), { roots });
    fs.mkdirSync(path.join(home, 'claude'), { recursive: true });
    const boxSocket = `${socket}-${name}`;
    if (h === 1) {
      sockets.push(boxSocket);
      remoteMarks = path.join(dir, 'marks-there.txt');
      await teamFollowing(boxSocket, path.join(home, 'claude'), path.join(home, 'projects'), remoteMarks);
      await quietTeams(boxSocket, path.join(home, 'claude'), path.join(home, 'projects'), TEAMS);
    }
    const env = `HOME=${home} XDG_STATE_HOME=${home}/state XDG_CONFIG_HOME=${home}/config`;
    hosts.push({
      name,
      destination: name,
      sshArgs: ['-F', sshConfig],
      tower: `${env} ${process.execPath} ${cli.bin} --claude-dir ${home}/claude -L ${boxSocket}`,
    });
    aliases.push(base.replace('Host sim', `Host ${name}`));
  }
  fs.writeFileSync(sshConfig, aliases.join('\n'));
  const started = performance.now();
  const pid = await startScreen(
    'there',
    path.join(dir, 'local-there'),
    { hosts, local: false, hostTimeoutSec: 120 },
    dir,
  );
  const there = () => looks!.capture('there');
  const total = HOSTS * RUNS + 1 + TEAMS;
  await waitFor(async () => (await there()).includes(`tower · ${total} runs`), 300_000, {
    intervalMs: 100,
    what: `${total} runs on screen`,
  });
  console.log(`${HOSTS} boxes: every run on screen ${((performance.now() - started) / 1000).toFixed(1)} s after start`);
  for (const k of ['/', 'c', 'r', 'e', 'w', 'Enter']) await tmux('send-keys', '-t', 'there', k);
  await waitFor(async () => /Preview · lead %\d+ on box-01/.test(await there()), 60_000, {
    intervalMs: 50,
    what: 'the remote preview',
  });
  await pause(1500);
  const remoteMs = await markLatencies(there, remoteMarks, 'there');
  console.log(`a line printed → the preview, a pane of another box:     ${fmt(remoteMs)}`);

  await pause(3000);
  const hz = Number((await execa('getconf', ['CLK_TCK'])).stdout.trim()) || 100;
  const a = procUsage(pid);
  const t0 = performance.now();
  await pause(IDLE_SEC * 1000);
  const b = procUsage(pid);
  const cpu = ((b.ticks - a.ticks) / hz / ((performance.now() - t0) / 1000)) * 100;
  console.log(
    `the screen idle for ${IDLE_SEC} s, ${HOSTS} boxes, one remote preview open: CPU ${cpu.toFixed(2)}% of one core (goal ≤ 2%), RSS ${(b.rss / 1024 / 1024).toFixed(0)} MB (goal ≤ 250 MB)`,
  );

  // The previewed agent printing ten lines a second: what streaming costs the screen, and box 1's `tower serve`.
  const far = servePid(sockets[1] as string);
  const c = procUsage(pid);
  const farBefore = far === null ? null : procUsage(far);
  const t1 = performance.now();
  for (let i = 0; performance.now() - t1 < BUSY_SEC * 1000; i++) {
    fs.appendFileSync(remoteMarks, `busy line ${i} ${'·'.repeat(60)}\n`);
    await pause(100);
  }
  const d = procUsage(pid);
  const farAfter = far === null ? null : procUsage(far);
  const busySec = (performance.now() - t1) / 1000;
  const busy = ((d.ticks - c.ticks) / hz / busySec) * 100;
  console.log(
    `the screen for ${BUSY_SEC} s while the previewed agent on box 1 prints 10 lines a second: CPU ${busy.toFixed(2)}% of one core, RSS ${(d.rss / 1024 / 1024).toFixed(0)} MB`,
  );
  const farBusy =
    farBefore && farAfter ? `${(((farAfter.ticks - farBefore.ticks) / hz / busySec) * 100).toFixed(2)}%` : '?';
  console.log(
    `box 1's tower serve meanwhile (it streams the pane; ${TEAMS} more teams alive there): CPU ${farBusy} of one core`,
  );
} finally {
  looks?.close();
  for (const s of sockets) {
    await tmuxOn(s, 'kill-server').catch(() => {});
    fs.rmSync(path.join(tmuxSocketDir(), s), { force: true });
  }
  lab.remove();
  cli.remove();
  fs.rmSync(dir, { recursive: true, force: true });
}
