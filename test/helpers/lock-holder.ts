/**
 * A tower writer to be killed with SIGKILL: grants in a loop, holding the SAGE grant lock while it
 * rewrites `.resume-signal` with a large body (so a kill lands inside the lock or mid-write).
 * argv: <stateDir>. Prints `ready` once looping.
 */
import path from 'node:path';
import { writeAtomic } from '../../src/kit/files.js';
import { withLock } from '../../src/kit/lock.js';

const stateDir = process.argv[2] ?? '';
const big = 'x'.repeat(4 * 1024 * 1024);
process.stdout.write('ready\n');
for (;;) {
  await withLock(stateDir, path.join(stateDir, '.tower-grant.lock'), async () => {
    await writeAtomic(stateDir, path.join(stateDir, '.resume-signal'), big);
    await writeAtomic(stateDir, path.join(stateDir, '.resume-signal'), `STATUS: REVISE\n`);
  });
}
