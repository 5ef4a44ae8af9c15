/**
 * What `tower serve` costs the box while the other side previews a pane printing ten lines a second
 * (goal ≤ 1.5 % of one core), builds side by side (printed, never asserted). Each build gets a tmux
 * server of its own with a Claude team whose lead's pane prints a line every 100 ms, and a
 * `tower serve --stdio` asked to preview that pane; a third server runs the same pane with no tower
 * (the floor: what the printing costs tmux anyway). All run at once, so every build sees the same
 * load; CPU is read from /proc over BENCH_WINDOWS windows of BENCH_WINDOW_SEC seconds (defaults 5 × 6):
 * the serve process, the processes it started and waited for (capture-pane and the like), and its
 * tmux server above the floor's. Medians of the windows, in % of one core.
 *
 *   node --import tsx test/bench/serve-preview.bench.ts [BIN…]   (default: this repo's bin/tower.js)
 *   BENCH_BASE_BIN=/path/to/bin/tower.js adds a previous build.
 *   BENCH_WARMUP_SEC=S waits S seconds (default 3) before measuring, the code warmed up.
 *   BENCH_PREVIEW=0 asks for no preview: what the serve costs at rest beside the same printing pane.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { socketFile } from '../../src/tmux/client.js';
import { tempDir } from '../helpers/box.js';
import { agentPane, writeCrew } from '../helpers/ssh-fleet.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { median } from './ui-tmux.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const bins = [
  ...(process.env.BENCH_BASE_BIN ? [process.env.BENCH_BASE_BIN] : []),
  ...(process.argv.slice(2).length ? process.argv.slice(2) : [path.join(repo, 'bin', 'tower.js')]),
];
const PREVIEW = process.env.BENCH_PREVIEW !== '0';
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 5);
const WINDOW_SEC = Number(process.env.BENCH_WINDOW_SEC ?? 6);
const PRINTER = `sh -c 'i=0; while :; do i=$((i+1)); echo "line $i of what the agent prints"; sleep 0.1; done'`;
const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ticks of a process: its own, and those of the children it waited for. */
function ticks(pid: number): { own: number; children: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
}

interface Lane {
  label: string;
  socket: string;
  serverPid: number;
  serve: ChildProcess | null;
  figures: { own: number[]; children: number[]; server: number[] };
  /** Messages the serve wrote, by type, and their bytes. */
  sent: Map<string, { n: number; bytes: number }>;
}

const dir = tempDir('tower-bench-serve-preview-');
const lanes: Lane[] = [];
try {
  const setUp = async (label: string, bin: string | null): Promise<Lane> => {
    const socket = uniqueSocketName('tower-bench-serve');
    const home = path.join(dir, `home-${lanes.length}`);
    const claudeDir = path.join(home, 'claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    const pane = await agentPane(socket, dir, PRINTER);
    const serverPid = Number(
      execFileSync('tmux', ['-L', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }),
    );
    const lane: Lane = {
      label,
      socket,
      serverPid,
      serve: null,
      figures: { own: [], children: [], server: [] },
      sent: new Map(),
    };
    lanes.push(lane);
    if (!bin) return lane;
    writeCrew(claudeDir, dir, [{ name: 'lead', pane }]);
    const env = { ...process.env, HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/config` };
    const serve = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        bin,
        '--claude-dir',
        claudeDir,
        '-L',
        socket,
        'serve',
        '--stdio',
      ],
      {
        env,
        stdio: ['pipe', 'pipe', process.env.BENCH_STDERR ? 'inherit' : 'ignore'],
      },
    );
    lane.serve = serve;
    let out = '';
    let lines = 0;
    let partial = '';
    serve.stdout!.setEncoding('utf8');
    serve.stdout!.on('data', (chunk: string) => {
      // Only the first lines are kept (hello, snapshot), then only whether pane text arrives.
      if (out.length < 1 << 20) out += chunk;
      const whole = (partial + chunk).split('\n');
      partial = whole.pop() ?? '';
      lines += whole.length;
      for (const line of whole) {
        const type = /^\{"type":"([a-z-]+)"/.exec(line)?.[1] ?? '?';
        const t = lane.sent.get(type) ?? { n: 0, bytes: 0 };
        lane.sent.set(type, { n: t.n + 1, bytes: t.bytes + line.length + 1 });
      }
    });
    await waitFor(() => out.includes('"type":"snapshot"'), 60_000, { what: `${label}: the snapshot` });
    serve.stdin!.write(`${JSON.stringify({ type: 'use', features: ['pane-preview'] })}\n`);
    if (!PREVIEW) return lane;
    serve.stdin!.write(`${JSON.stringify({ type: 'preview', pane, server: null })}\n`);
    await waitFor(() => out.includes('"type":"pane"'), 30_000, { what: `${label}: the pane streamed` });
    const seen = lines;
    await waitFor(() => lines > seen + 5, 30_000, { what: `${label}: lines as the pane prints` });
    return lane;
  };
  const floor = await setUp('floor: the pane printing, no tower', null);
  for (const bin of bins) await setUp(path.relative(process.cwd(), bin), bin);
  await pause(Number(process.env.BENCH_WARMUP_SEC ?? 3) * 1000);
  for (const l of lanes) l.sent.clear();
  for (let w = 0; w < WINDOWS; w++) {
    const before = lanes.map((l) => ({ serve: l.serve?.pid ? ticks(l.serve.pid) : null, server: ticks(l.serverPid) }));
    await pause(WINDOW_SEC * 1000);
    lanes.forEach((l, i) => {
      const pct = (d: number) => (d / hz / WINDOW_SEC) * 100;
      const b = before[i]!;
      const server = ticks(l.serverPid);
      l.figures.server.push(pct(server.own - b.server.own));
      if (l.serve?.pid && b.serve) {
        const now = ticks(l.serve.pid);
        l.figures.own.push(pct(now.own - b.serve.own));
        l.figures.children.push(pct(now.children - b.serve.children));
      }
    });
  }
  const f = (xs: number[]) => `${median(xs).toFixed(2).padStart(5)} %`;
  // How fast this machine is now: what one wake of node's loop costs (a VM's figures move with its host).
  const wake = JSON.parse(
    execFileSync(
      process.execPath,
      [
        '-e',
        `(async () => { await new Promise((r) => setTimeout(r, 200)); const t = process.cpuUsage();
         for (let i = 0; i < 200; i++) await new Promise((r) => setTimeout(r, 10));
         const u = process.cpuUsage(t); console.log(JSON.stringify((u.user + u.system) / 200)); })()`,
      ],
      { encoding: 'utf8' },
    ),
  ) as number;
  const floorServer = median(floor.figures.server);
  console.log(
    `tower serve ${PREVIEW ? 'previewing' : 'beside, not previewing,'} a pane that prints 10 lines/s: medians of ${WINDOWS} windows of ${WINDOW_SEC} s, % of one core (goal ≤ 1.5 %)`,
  );
  console.log(`floor: the pane's tmux server with no tower ${f(floor.figures.server)}`);
  console.log(`this machine now: one wake of an idle node costs ${wake.toFixed(0)} µs of CPU`);
  console.log('build                                      serve   its children   its tmux server above floor   total');
  const totals: number[] = [];
  for (const l of lanes.slice(1)) {
    const above = median(l.figures.server) - floorServer;
    const total = median(l.figures.own) + median(l.figures.children) + above;
    totals.push(total);
    const sent = [...l.sent].map(
      ([type, t]) =>
        `${type} ${(t.n / (WINDOWS * WINDOW_SEC)).toFixed(1)}/s ${(t.bytes / (WINDOWS * WINDOW_SEC) / 1024).toFixed(1)} KB/s`,
    );
    console.log(
      `${l.label.padEnd(42)} ${f(l.figures.own)}   ${f(l.figures.children)}        ${above.toFixed(2).padStart(5)} %              ${total.toFixed(2).padStart(5)} %`,
    );
    console.log(`  sent: ${sent.join(', ')}`);
  }
  if (totals.length === 2 && totals[1]! > 0)
    console.log(`previous build / this build: ${(totals[0]! / totals[1]!).toFixed(2)}× the CPU`);
} finally {
  // stdin closing ends a serve (as ssh going away does); one that lingers is killed.
  for (const l of lanes) l.serve?.stdin?.end();
  await Promise.all(
    lanes.map((l) =>
      l.serve && l.serve.exitCode === null
        ? Promise.race([new Promise((r) => l.serve!.once('exit', r)), pause(5000)])
        : null,
    ),
  );
  for (const l of lanes) {
    l.serve?.kill();
    try {
      execFileSync('tmux', ['-L', l.socket, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    // tmux leaves its socket file behind.
    fs.rmSync(socketFile({ name: l.socket }), { force: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
