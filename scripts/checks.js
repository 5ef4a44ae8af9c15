// The checks `npm test` runs before the tests, side by side: formatting, types and lint each take
// 14-25 s on a 2-core box, 54 s one after another and ~35 s together. Each one's output is printed
// whole once it ends, so two never interleave; any that fails fails the whole.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const CHECKS = [
  ['format', 'format:check'],
  ['types', 'typecheck'],
  ['lint', 'lint'],
];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(
  CHECKS.map(
    ([label, script]) =>
      new Promise((resolve) => {
        const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        const out = [];
        child.stdout.on('data', (b) => out.push(b));
        child.stderr.on('data', (b) => out.push(b));
        child.on('error', (err) => resolve({ label, code: 1, text: `${err.message}\n` }));
        child.on('close', (code) => {
          const text = Buffer.concat(out).toString('utf8');
          process.stdout.write(
            `── ${label}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${code === 0 ? '' : text}`,
          );
          resolve({ label, code, text });
        });
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0).map((r) => r.label);
if (failed.length > 0) {
  process.stderr.write(`checks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
