/**
 * `npm run bench`: runs every test/bench/*.bench.ts in its own process, one after the other, and
 * lets each print its figures. Benchmarks print; they never assert on time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const only = process.argv.slice(2);
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`!! ${file} exited with ${r.status ?? r.signal}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
