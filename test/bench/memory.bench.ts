/**
 * Resident memory of the control room after an hour's worth of changes, compressed in time: on 50
 * runs × 200 tasks, the selected run's visible task subjects are rewritten with new text again and
 * again (as live output keeps changing), BENCH_CHANGES times (default 3,600: one a second for an
 * hour), and RSS is sampled as it goes. Goal: stays under 150 MB. Uses the built bin/tower.js.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildBigMachine } from '../helpers/big-machine.js';
import { tempDir } from '../helpers/box.js';
import { BenchTmux, rssMb } from './ui-tmux.js';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 3600);
const GAP_MS = 20;
const repo = path.resolve(import.meta.dirname, '..', '..');
const bin = process.env.BENCH_BIN ?? path.join(repo, 'bin', 'tower.js');
const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const tmux = new BenchTmux(`tower-bench-mem-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
const xdg = tempDir('tower-bench-xdg-');
const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });

function waitForScreen(pane: string, re: RegExp, ms = 60_000): void {
  const end = Date.now() + ms;
  while (!re.test(tmux.screen(pane))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${re}:\n${tmux.screen(pane)}`);
    sleep(20);
  }
}

try {
  const flags = [
    '--claude-dir',
    machine.claudeDir,
    ...[...machine.tinaRoots, ...machine.otherRoots].flatMap((r) => ['--root', r]),
    '-L',
    tmux.socket,
  ];
  const vars = [`XDG_CONFIG_HOME=${xdg}/config`, `XDG_STATE_HOME=${xdg}/state`].map(quote).join(' ');
  const pane = tmux.start(
    `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars} node ${quote(bin)} ${flags.map(quote).join(' ')}; sleep 100000`,
  );
  waitForScreen(pane, /tower · \d+ runs/);
  // Select the run whose tasks will change: its task table is on screen.
  tmux.run('send-keys', '-t', pane, '/');
  tmux.run('send-keys', '-t', pane, '-l', 'feature-01');
  tmux.run('send-keys', '-t', pane, 'Enter');
  waitForScreen(pane, /Task 1 of feature-01/);
  sleep(2000);
  const pid = tmux.nodePid(pane);
  const start = rssMb(pid) ?? 0;
  const tasks = path.join(machine.claudeDir, 'tasks', 'feature-01-phase-2');
  let peak = start;
  for (let i = 1; i <= CHANGES; i++) {
    const id = 1 + (i % 6);
    const subject = `live output ${i} at ${new Date().toISOString()} ${crypto.randomBytes(12).toString('hex')}`;
    const file = path.join(tasks, `${id}.json`);
    fs.writeFileSync(
      `${file}.tmp`,
      JSON.stringify({
        id: String(id),
        subject,
        description: 'x',
        status: 'in_progress',
        owner: 'worker-1',
        blocks: [],
        blockedBy: [],
        metadata: {},
      }),
    );
    fs.renameSync(`${file}.tmp`, file);
    sleep(GAP_MS);
    if (i % 300 === 0) {
      const now = rssMb(pid) ?? 0;
      peak = Math.max(peak, now);
      console.log(`  after ${String(i).padStart(5)} changes: RSS ${now.toFixed(1)} MB`);
    }
  }
  waitForScreen(pane, new RegExp(`live output ${CHANGES} `));
  sleep(2000);
  const end = rssMb(pid) ?? 0;
  console.log(
    `RSS of the control room, 50 runs × 200 tasks, ${CHANGES} changes of on-screen text (${GAP_MS} ms apart):`,
  );
  console.log(
    `  settled ${start.toFixed(1)} MB; peak ${Math.max(peak, end).toFixed(1)} MB; at the end ${end.toFixed(1)} MB (goal < 150 MB)`,
  );
} finally {
  tmux.kill();
  machine.remove();
  fs.rmSync(xdg, { recursive: true, force: true });
}
