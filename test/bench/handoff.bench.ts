/**
 * Reading a handoff in a fresh process, as the first read of a box with a tina handoff does: the
 * handoff parser (micromark with GitHub's extensions) bundled into one CommonJS file, minified, is
 * loaded and parses test/fixtures/box/.../phase-2/handoff.md once. Prints the median of 10 processes,
 * load and parse apart. Then the reader on hostile Markdown of growing size, warm, to show the time
 * grows in step with the input. Run: node --import tsx test/bench/handoff.bench.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import { tempDir } from '../helpers/box.js';

const ROUNDS = 10;
const repo = path.resolve(import.meta.dirname, '..', '..');
const fixture = path.join(repo, 'test/fixtures/box/projects/auth-flow/.claude/tina/phase-2/handoff.md');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** A CommonJS file exporting parseHandoff(text, file) from `entry`'s export `name`. */
async function bundleParser(dir: string, label: string): Promise<string> {
  const stub = path.join(dir, `${label}-entry.ts`);
  const handoff = JSON.stringify(path.join(repo, 'src/systems/tina/handoff.ts'));
  const reader = JSON.stringify(path.join(repo, 'src/systems/tina/markdown-reader.ts'));
  fs.writeFileSync(
    stub,
    `import { parseHandoff as parse } from ${handoff};\nimport { readMarkdown } from ${reader};\nexport const parseHandoff = (text: string, file: string) => parse(text, file, readMarkdown);\n`,
  );
  const outfile = path.join(dir, `${label}.cjs`);
  await build({
    entryPoints: [stub],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    nodePaths: [path.join(repo, 'node_modules')],
  });
  return outfile;
}

const PROBE = `
const fs = require('node:fs');
const text = fs.readFileSync(process.argv[2], 'utf8');
const t0 = performance.now();
const { parseHandoff } = require(process.argv[1]);
const t1 = performance.now();
const r = parseHandoff(text, process.argv[2]);
const t2 = performance.now();
if (r.handoff.tasks.length === 0) process.exit(2);
process.stdout.write(JSON.stringify([t1 - t0, t2 - t1]));
`;

function cold(file: string): { load: number; parse: number; bytes: number } {
  const load: number[] = [];
  const parse: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = spawnSync(process.execPath, ['-e', PROBE, file, fixture], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
    const [l, p] = JSON.parse(r.stdout) as [number, number];
    load.push(l);
    parse.push(p);
  }
  return { load: median(load), parse: median(parse), bytes: fs.statSync(file).size };
}

const dir = tempDir('tower-bench-handoff-');
try {
  const micromark = await bundleParser(dir, 'micromark');
  console.log(`cold read of ${path.relative(repo, fixture)} in a fresh node, median of ${ROUNDS}:`);
  for (const [label, file] of [['micromark + gfm', micromark]] as const) {
    const c = cold(file);
    const kb = (c.bytes / 1024).toFixed(0);
    console.log(
      `  ${label.padEnd(20)} ${kb.padStart(4)} KB   load ${c.load.toFixed(2)} ms   parse ${c.parse.toFixed(2)} ms   total ${(c.load + c.parse).toFixed(2)} ms`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const HOSTILE: Record<string, (n: number) => string> = {
  'stray * and [': (n) => '*[_`'.repeat(n / 4),
  'backtick runs of every length': (n) =>
    Array.from({ length: Math.sqrt(n) }, (_, i) => '`'.repeat(i + 1) + 'x')
      .join(' ')
      .slice(0, n),
  'nested lists and quotes': (n) =>
    Array.from({ length: n / 40 }, (_, i) => `${'  '.repeat(i % 30)}- > item ${i}\n`)
      .join('')
      .slice(0, n),
  'one huge line': (n) => 'word | '.repeat(n / 7),
  'table rows': (n) => `| a | b |\n|---|---|\n${'| x \\| y | `z` |\n'.repeat(n / 17)}`,
};
console.log('\nreadMarkdown on hostile input, warm, ms (best of 3) at 64 / 128 / 256 KB:');
for (const [name, make] of Object.entries(HOSTILE)) {
  const figures = [64, 128, 256].map((kb) => {
    const text = make(kb * 1024);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      readMarkdown(text);
      best = Math.min(best, performance.now() - t0);
    }
    return best.toFixed(1);
  });
  console.log(`  ${name.padEnd(32)} ${figures.join(' / ')}`);
}
