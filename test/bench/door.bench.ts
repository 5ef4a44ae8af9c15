/**
 * What a hostile box costs this tower (printed, never asserted): one 100 MB line through the line
 * splitter, and the door's check of a full snapshot of 2,000 runs.
 * Run: node --import tsx test/bench/door.bench.ts
 */
import { emptyRun } from '../../src/model.js';
import { admitLine } from '../../src/remote/door.js';
import { lineSplitter } from '../../src/remote/lines.js';

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
  console.log(`100 MB line: ${ms(t)}, ${lines} line(s) delivered, ${dropped} dropped as over-long (bound 64 MB), RSS +${((process.memoryUsage().rss - rss0) / 1048576).toFixed(0)} MB`);
}

// The door's schema check and cleaning of a box's first snapshot.
for (const n of [200, 2000]) {
  const runs = Array.from({ length: n }, (_, i) => ({ ...emptyRun('claude-team', `team-${i}`, null, null), status: 'idle' }));
  const line = JSON.stringify({ type: 'snapshot', snapshot: { version: 1, generatedAt: new Date().toISOString(), runs, problems: [] } });
  const t = process.hrtime.bigint();
  const got = admitLine(line);
  const kept = got.message?.type === 'snapshot' ? got.message.snapshot.runs.length : 0;
  console.log(`snapshot of ${n} runs (${(line.length / 1024).toFixed(0)} KB): admitted ${kept} in ${ms(t)}`);
}
