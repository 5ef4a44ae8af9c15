/**
 * The live store on a big machine (50 tina runs, each merging a team of 200 task files, plus
 * harness, SAGE and dotagent runs): file-change-to-emit latency over 50 writes (median / p95),
 * then CPU (% of one core) and memory while idle for 60 s (BENCH_IDLE_SEC to change).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Snapshot } from '../../src/model/model.js';
import { createLiveStore } from '../../src/store/live-store.js';
import { buildBigMachine } from '../helpers/big-machine.js';
import { testContext } from '../helpers/context.js';
import { startTmux } from '../helpers/tmux.js';

const WRITES = 50;
const IDLE_SEC = Number(process.env.BENCH_IDLE_SEC ?? 60);

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** inotify watches held by this process (Linux), from /proc/self/fdinfo. */
function inotifyWatches(): number | null {
  try {
    let n = 0;
    for (const fd of fs.readdirSync('/proc/self/fd')) {
      try {
        if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
        n += fs
          .readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('inotify wd:')).length;
      } catch {
        // fds come and go while we look
      }
    }
    return n;
  } catch {
    return null;
  }
}

const machine = buildBigMachine({ tinaRuns: 50, tasksPerTeam: 200, others: 5 });
const tmux = await startTmux();
for (const root of machine.tinaRoots.slice(0, 5)) await tmux.newSession(path.basename(root), root);
const ctx = testContext({ claudeDir: machine.claudeDir, roots: machine.otherRoots, socketName: tmux.name });
const store = createLiveStore(ctx);

try {
  const rss0 = process.memoryUsage().rss;
  let t = performance.now();
  await store.start();
  const startMs = performance.now() - t;
  const first = store.getSnapshot();
  console.log(
    `start: ${startMs.toFixed(0)} ms for ${first.runs.length} runs, ${first.runs.reduce((n, r) => n + r.tasks.length, 0)} tasks; ` +
      `${inotifyWatches() ?? '?'} inotify watches; RSS ${mb(rss0)} → ${mb(process.memoryUsage().rss)}`,
  );

  // Latency: half the writes touch a tina state file, half a task file of the team the run merges.
  const latencies: { kind: string; ms: number }[] = [];
  for (let i = 0; i < WRITES; i++) {
    const n = String((i % 50) + 1).padStart(2, '0');
    const id = `tina:feature-${n}`;
    const value = 1000 + i;
    let check: (s: Snapshot) => boolean;
    let write: () => void;
    let kind: string;
    if (i % 2 === 0) {
      kind = 'state file';
      const file = path.join(machine.tinaRoots[i % 50]!, '.claude', 'tina', 'context-metrics.json');
      write = () => fs.writeFileSync(file, JSON.stringify({ used_pct: value, tokens: 1, max: 200000 }));
      check = (s) => s.runs.find((r) => r.id === id)?.context?.usedPct === value;
    } else {
      kind = 'task file';
      const file = path.join(machine.claudeDir, 'tasks', `feature-${n}-phase-2`, '7.json');
      write = () =>
        fs.writeFileSync(
          file,
          JSON.stringify({ id: '7', subject: `renamed ${value}`, status: 'in_progress', blockedBy: [] }),
        );
      check = (s) => s.runs.find((r) => r.id === id)?.tasks.some((x) => x.subject === `renamed ${value}`) ?? false;
    }
    const seen = new Promise<number>((resolve) => {
      const off = store.subscribe(() => {
        if (!check(store.getSnapshot())) return;
        off();
        resolve(performance.now());
      });
    });
    t = performance.now();
    write();
    const at = await Promise.race([seen, pause(5000).then(() => NaN)]);
    latencies.push({ kind, ms: at - t });
    await pause(30);
  }
  const all = latencies.map((l) => l.ms);
  const missed = all.filter((ms) => Number.isNaN(ms)).length;
  const ok = all.filter((ms) => !Number.isNaN(ms));
  console.log(
    `change → emit over ${WRITES} writes: median ${percentile(ok, 50).toFixed(0)} ms, p95 ${percentile(ok, 95).toFixed(0)} ms, max ${Math.max(...ok).toFixed(0)} ms${missed ? `, ${missed} not seen within 5 s` : ''}`,
  );
  for (const kind of ['state file', 'task file']) {
    const k = latencies.filter((l) => l.kind === kind && !Number.isNaN(l.ms)).map((l) => l.ms);
    console.log(`  ${kind}: median ${percentile(k, 50).toFixed(0)} ms, p95 ${percentile(k, 95).toFixed(0)} ms`);
  }

  // Idle: nothing changes; the store polls tmux once a second and re-reads everything once a minute.
  await pause(2000);
  let emits = 0;
  const off = store.subscribe(() => emits++);
  const cpu0 = process.cpuUsage();
  t = performance.now();
  await pause(IDLE_SEC * 1000);
  const wall = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  off();
  const pct = ((cpu.user + cpu.system) / 1000 / wall) * 100;
  console.log(
    `idle ${IDLE_SEC} s (poll every ${ctx.config.pollIntervalMs} ms): CPU ${pct.toFixed(2)} % of a core ` +
      `(user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms), ${emits} emits; ` +
      `RSS ${mb(process.memoryUsage().rss)}, heap ${mb(process.memoryUsage().heapUsed)}`,
  );
} finally {
  await store.stop();
  await tmux.kill();
  machine.remove();
}
