// Writes the key table, generated from src/keys/keymap.ts, into README.md between the keys markers
// (`npm run docs`). test/ui/keymap.test.ts fails when the README's table is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withKeyTable } from '../src/ui/keys-doc.js';

const readmePath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
const before = fs.readFileSync(readmePath, 'utf8');
const after = withKeyTable(before);
if (after === before) {
  console.log('README.md key table is up to date');
} else {
  fs.writeFileSync(readmePath, after);
  console.log('README.md key table updated');
}
