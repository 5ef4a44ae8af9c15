/**
 * A day of use, compressed: the control room (the built bin/tower.js) on the demo's sandbox with its
 * agents churning, tower's real hook command firing for a demo pane, a box over ssh (a private sshd
 * on 127.0.0.1) with an agent of its own, the preview streaming a member, and actions every minute
 * (send and answer in the demo, a grant on the box). Every minute it prints RSS, heap, CPU, open
 * fds, child processes, tmux clients and timers; at the end a verdict: RSS within 10 % of the first
 * minute's, fds and children equal. SOAK_MINUTES sets the length (default 2; 60 for a real figure).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import { readDemoRecord } from '../../src/context/demo-record.js';
import { agentPane, startFleet, writeCrew } from '../helpers/ssh-fleet.js';
import { tempDir } from '../helpers/box.js';
import { BenchTmux, procUsage } from './ui-tmux.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 2);
const repo = path.resolve(import.meta.dirname, '..', '..');
const bin = process.env.BENCH_BIN ?? path.join(repo, 'bin', 'tower.js');
const probe = path.join(import.meta.dirname, 'soak-probe.mjs');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = 100;

const work = tempDir('tower-bench-soak-');
const demoSocket = `tower-demo-soak-${crypto.randomBytes(3).toString('hex')}`;
const room = new BenchTmux(`tower-bench-soak-${process.pid}`);
const fleet = await startFleet('tower-bench-soak', { q: 'quay' });

const node = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 });

/** The processes whose parent is `pid`. */
function children(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      // Ended between the listing and the read.
    }
  }
  return out;
}

const clients = (socket: string): number => {
  try {
    return execFileSync('tmux', ['-L', socket, 'list-clients'], { encoding: 'utf8' }).split('\n').filter(Boolean)
      .length;
  } catch {
    return 0;
  }
};

interface Sample {
  minute: number;
  rssMb: number;
  heapMb: number;
  cpuPct: number;
  fds: number;
  children: number;
  tmuxClients: number;
  timers: number;
}

try {
  const home = path.join(work, 'home');
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state') };
  const built = node(['demo', '--no-ui', '-L', demoSocket, '--dir', path.join(work, 'demo')], env);
  if (built.status !== 0) throw new Error(`tower demo failed: ${built.stderr}`);
  const demo = readDemoRecord(fs.realpathSync(path.join(work, 'demo')));
  if (!demo) throw new Error('the demo wrote no record');

  // A box over ssh with an agent of its own.
  const box = fleet.boxes.q!;
  const agent = await agentPane(box.socketName, box.root, 'sh -c "while :; do date; sleep 2; done"');
  writeCrew(box.claudeDir, box.root, [{ name: 'lead', pane: agent, joinedAt: Date.now() }], Date.now());
  const config = path.join(work, 'config.json');
  fs.writeFileSync(config, JSON.stringify({ hosts: [fleet.host(box)] }));

  const probeFile = path.join(work, 'probe.json');
  const flags = [
    ...demo.roots.flatMap((r) => ['--root', r]),
    ...['--claude-dir', demo.claudeDir, '-L', demoSocket, '--config', config],
  ];
  const vars = [
    `HOME=${home}`,
    `XDG_CONFIG_HOME=${home}/config`,
    `XDG_STATE_HOME=${demo.stateHome}`,
    `TOWER_SOAK_PROBE=${probeFile}`,
  ];
  const pane = room.start(
    `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars.map(quote).join(' ')} node --import ${quote(probe)} ${quote(bin)} ${flags.map(quote).join(' ')}; sleep 100000`,
  );
  const until = async (re: RegExp, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!re.test(room.screen(pane))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}:\n${room.screen(pane)}`);
      await sleep(100);
    }
  };
  await until(/q\s+harness\s+quay/);
  // The preview streams the selected member's pane: the team pane, a member selected.
  room.run('send-keys', '-t', pane, 'Tab');
  const pid = room.nodePid(pane);

  // tower's real hook command, as Claude Code runs it for a demo pane: prompt, then stop.
  const hookPane = (
    execFileSync('tmux', ['-L', demoSocket, 'list-panes', '-a', '-F', '#{pane_id}'], { encoding: 'utf8' }).split(
      '\n',
    )[0] ?? '%0'
  ).trim();
  const demoTmux = execFileSync('tmux', ['-L', demoSocket, 'display-message', '-p', '#{socket_path},#{pid},0'], {
    encoding: 'utf8',
  }).trim();
  let hookTurn = 0;
  const fireHook = () => {
    const event = ++hookTurn % 2 ? 'UserPromptSubmit' : 'Stop';
    spawnSync('sh', ['-c', hookCommand()], {
      input: JSON.stringify({ session_id: 'soak', hook_event_name: event, cwd: demo.roots[0] }),
      env: { ...process.env, XDG_STATE_HOME: demo.stateHome, TMUX: demoTmux, TMUX_PANE: hookPane },
    });
  };

  // Actions every minute: a send and an answer in the demo, a grant on the box.
  let actionN = 0;
  const actions = () => {
    const demoFlags = ['--demo', '-L', demoSocket];
    const said: string[] = [];
    const send = node(['send', 'claude-team:docs-refresh', `soak note ${++actionN}`, ...demoFlags], env);
    said.push(`send ${send.status}`);
    const answer = node(['answer', 'claude-team:docs-refresh', '1', '--member', 'writer-2', ...demoFlags], env);
    said.push(`answer ${answer.status}`);
    box.openCheckpoint(`soak-${actionN}`);
    const grant = node(['grant', 'q/harness:quay', `soak-${actionN}`, '--config', config, '--no-local'], env);
    said.push(`grant ${grant.status}`);
    return said.join(', ');
  };

  const samples: Sample[] = [];
  let last = procUsage(pid).ticks;
  let lastAt = Date.now();
  console.log(`soak: ${MINUTES} min; tower pid ${pid}; demo -L ${demoSocket}; box over ssh: q`);
  console.log('min  rss MB  heap MB  cpu %  fds  children  tmux clients  timers  actions');
  for (let minute = 1; minute <= MINUTES; minute++) {
    const end = Date.now() + 60_000;
    while (Date.now() < end) {
      fireHook();
      await sleep(5000);
    }
    const done = actions();
    const use = procUsage(pid);
    const now = Date.now();
    const p = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as { heapUsed: number; timers: number };
    const s: Sample = {
      minute,
      rssMb: use.rss / 1048576,
      heapMb: p.heapUsed / 1048576,
      cpuPct: ((use.ticks - last) / CLK_TCK / ((now - lastAt) / 1000)) * 100,
      fds: fs.readdirSync(`/proc/${pid}/fd`).length,
      children: children(pid).length,
      tmuxClients: clients(demoSocket),
      timers: p.timers,
    };
    last = use.ticks;
    lastAt = now;
    samples.push(s);
    console.log(
      `${String(minute).padStart(3)}  ${s.rssMb.toFixed(1).padStart(6)}  ${s.heapMb.toFixed(1).padStart(7)}  ${s.cpuPct.toFixed(1).padStart(5)}  ${String(s.fds).padStart(3)}  ${String(s.children).padStart(8)}  ${String(s.tmuxClients).padStart(12)}  ${String(s.timers).padStart(6)}  ${done}`,
    );
  }
  const first = samples[0]!;
  const end = samples.at(-1)!;
  const rssOk = Math.abs(end.rssMb - first.rssMb) <= first.rssMb * 0.1;
  const verdict = [
    `RSS ${first.rssMb.toFixed(1)} → ${end.rssMb.toFixed(1)} MB (${rssOk ? 'within' : 'beyond'} 10 %)`,
    `fds ${first.fds} → ${end.fds} (${first.fds === end.fds ? 'equal' : 'changed'})`,
    `children ${first.children} → ${end.children} (${first.children === end.children ? 'equal' : 'changed'})`,
  ];
  const flat = rssOk && first.fds === end.fds && first.children === end.children;
  console.log(`verdict: ${flat ? 'flat' : 'NOT flat'}: ${verdict.join('; ')}`);
} finally {
  room.kill();
  try {
    execFileSync('tmux', ['-L', demoSocket, 'kill-server']);
  } catch {
    // Already gone.
  }
  await fleet.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
