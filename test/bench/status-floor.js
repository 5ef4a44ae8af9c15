// The floor for `tower status --json`: a bare node script that reads and parses the same files
// (every file under the Claude dir's teams, tasks and tina-sessions, and under each root), and
// prints how many it read. Plain JavaScript with node's own modules only, so it loads nothing else.
import fs from 'node:fs';
import path from 'node:path';

const [claudeDir, ...roots] = process.argv.slice(2);
let files = 0;
let parsed = 0;

function walk(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      const text = fs.readFileSync(p, 'utf8');
      files++;
      if (e.name.endsWith('.json')) {
        JSON.parse(text);
        parsed++;
      }
    }
  }
}

for (const d of ['teams', 'tasks', 'tina-sessions']) walk(path.join(claudeDir, d));
for (const root of roots) walk(root);
process.stdout.write(`${JSON.stringify({ files, parsed })}\n`);
