/**
 * What a hostile box costs this tower (printed, never asserted): one 100 MB line through the line
 * splitter, the door's check of a full snapshot of 2,000 runs, and one change to one run of a
 * box of 10,000 (made, checked, applied).
 * Run: node --import tsx test/bench/door.bench.ts
 */
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { admitLine } from '../../src/remote/door.js';
import { lineSplitter } from '../../src/remote/lines.js';
import { ORDER_WHEN_MOVED, applyChanges, diffSnapshots } from '../../src/remote/protocol.js';

function ms(start: bigint): string {
  return `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms`;
}

// One line of 100 MB in 64 KB chunks (as ssh delivers it), then a short one.
{
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  let dropped = 0;
  let lines = 0;
  const feed = lineSplitter(() => lines++, { onOverlong: () => dropped++ });
  const rss0 = process.memoryUsage().rss;
  const t = process.hrtime.bigint();
  for (let sent = 0; sent < 100 * 1024 * 1024; sent += chunk.length) feed(chunk);
  feed('\n{"type":"x"}\n');
  console.log(
    `100 MB line: ${ms(t)}, ${lines} line(s) delivered, ${dropped} dropped as over-long (bound 64 MB), RSS +${((process.memoryUsage().rss - rss0) / 1048576).toFixed(0)} MB`,
  );
}

// The door's schema check and cleaning of a box's first snapshot.
for (const n of [200, 2000]) {
  const runs = Array.from({ length: n }, (_, i) => ({
    ...emptyRun('claude-team', `team-${i}`, null, null),
    status: 'idle',
  }));
  const line = JSON.stringify({
    type: 'snapshot',
    snapshot: { version: 1, generatedAt: new Date().toISOString(), runs, problems: [] },
  });
  const t = process.hrtime.bigint();
  const got = admitLine(line);
  const kept = got.message?.type === 'snapshot' ? got.message.snapshot.runs.length : 0;
  console.log(`snapshot of ${n} runs (${(line.length / 1024).toFixed(0)} KB): admitted ${kept} in ${ms(t)}`);
}

// One run of 10,000 changes in place (the common change): the far side's diff, this side's door and apply.
{
  const runs: Run[] = Array.from({ length: 10_000 }, (_, i) => ({
    ...emptyRun('claude-team', `team-${i}`, null, null),
    status: 'idle',
  }));
  const prev = { version: 1 as const, generatedAt: new Date().toISOString(), runs, problems: [] };
  const times = { diff: [] as number[], door: [] as number[], apply: [] as number[] };
  for (let i = 0; i < 20; i++) {
    const next = { ...prev, runs: runs.map((r, k) => (k === i ? { ...r, status: 'running' as const } : r)) };
    let t = process.hrtime.bigint();
    const line = JSON.stringify(diffSnapshots(prev, next));
    times.diff.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    const got = admitLine(line);
    times.door.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    if (got.message?.type === 'changes') applyChanges(prev, got.message);
    times.apply.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const med = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1]?.toFixed(1);
  console.log(
    `one change on 10,000 runs: diff+encode ${med(times.diff)} ms, door ${med(times.door)} ms, apply ${med(times.apply)} ms (medians of 20)`,
  );
  // What crosses the link for it: with the whole order (an older tower on either side), and without.
  const next = { ...prev, runs: runs.map((r, k) => (k === 0 ? { ...r, status: 'running' as const } : r)) };
  const kb = (orderWhenMoved: boolean) =>
    (JSON.stringify(diffSnapshots(prev, next, orderWhenMoved)).length / 1024).toFixed(1);
  console.log(`its changes line: ${kb(false)} KB with the order, ${kb(true)} KB without (${ORDER_WHEN_MOVED})`);
}
