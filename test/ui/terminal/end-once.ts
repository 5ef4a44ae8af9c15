/**
 * Driver for end-once.test.ts: registers an ending task that takes a moment and writes `<out>`, then
 * ends twice at once, as a signal handler whose terminal restore reports the lost terminal does.
 */
import fs from 'node:fs';
import { atEnd, endProcess } from '../../../src/ui/terminal/ending.js';

const out = process.argv[2] ?? '';
atEnd(async () => {
  await new Promise((r) => setTimeout(r, 300));
  fs.writeFileSync(out, 'task ran');
});
void endProcess(129);
void endProcess(74);
