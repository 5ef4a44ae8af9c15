/**
 * The build-time rewrites of dependencies: each finds its target in the installed version (else the
 * build fails), the rewritten modules still work, ink's text caches stop growing, and the bundled
 * yoga loader no longer makes Node load its fetch implementation.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boundMeasureText,
  boundWrapText,
  fastStringWidth,
  fastTokenize,
  NARROW_TEXT,
  noFetchProbe,
  patchDependencies,
  SINGLE_GRAPHEMES,
  TEXT_CACHE_LIMIT,
} from '../../scripts/bundle-patches.js';
import { tempDir } from '../helpers/box.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
const inkFile = (name: string) => path.join(REPO, 'node_modules', 'ink', 'build', name);
const dir = tempDir('tower-patches-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Bundles `source` (an ES module) with the patches and runs it; returns its stdout. */
async function runBundled(name: string, source: string, nodeArgs: string[] = []): Promise<string> {
  const entry = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(entry, source);
  const out = path.join(dir, `${name}.out.mjs`);
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    nodePaths: [path.join(REPO, 'node_modules')],
    plugins: [patchDependencies],
  });
  return execFileSync(process.execPath, [...nodeArgs, out], { encoding: 'utf8' });
}

describe('bundle patches', () => {
  it('find their targets in the installed ink and yoga-layout', () => {
    expect(boundMeasureText(fs.readFileSync(inkFile('measure-text.js'), 'utf8'))).toContain(
      `cache.size >= ${TEXT_CACHE_LIMIT}`,
    );
    expect(boundWrapText(fs.readFileSync(inkFile('wrap-text.js'), 'utf8'))).toContain(
      `cacheSize >= ${TEXT_CACHE_LIMIT}`,
    );
    const yoga = path.join(REPO, 'node_modules', 'yoga-layout', 'dist', 'binaries', 'yoga-wasm-base64-esm.js');
    expect(noFetchProbe(fs.readFileSync(yoga, 'utf8'))).not.toMatch(/typeof fetch\b/);
  });

  it('refuse code they do not recognise, so an updated dependency fails the build', () => {
    expect(() => boundMeasureText('export default () => 0;')).toThrow(/ink measure-text/);
    expect(() => boundWrapText('const cache = new Map();')).toThrow(/ink wrap-text/);
    expect(() => noFetchProbe('export {};')).toThrow(/yoga-layout/);
  });

  it("keep ink's text measuring right across the cache starting afresh, with the heap flat", async () => {
    const out = await runBundled(
      'measure',
      `import measureText from ${JSON.stringify(inkFile('measure-text.js'))};
       import wrapText from ${JSON.stringify(inkFile('wrap-text.js'))};
       const line = (i) => 'live output line ' + i + ' ' + 'x'.repeat(200);
       let wrong = 0;
       const round = (from) => { for (let i = from; i < from + 50000; i++) {
         const m = measureText(line(i) + '\\nsecond');
         if (m.width !== line(i).length || m.height !== 2) wrong++;
         if (wrapText(line(i), 20, 'truncate-end').length > 40) wrong++;
       } };
       round(0); globalThis.gc(); const before = process.memoryUsage().heapUsed;
       round(50000); round(100000); round(150000); globalThis.gc();
       console.log(JSON.stringify({ wrong, growthMb: (process.memoryUsage().heapUsed - before) / 1e6 }));`,
      ['--expose-gc'],
    );
    const r = JSON.parse(out) as { wrong: number; growthMb: number };
    expect(r.wrong).toBe(0);
    // Unbounded, 150,000 more texts of ~230 characters would add well over 30 MB.
    expect(r.growthMb).toBeLessThan(8);
  }, 60_000);

  it('lay out with yoga without loading fetch', async () => {
    const out = await runBundled(
      'yoga',
      `import Yoga from 'yoga-layout';
       const node = Yoga.Node.create(); node.setWidth(42); node.calculateLayout();
       console.log(JSON.stringify({ width: node.getComputedWidth(), fetch: process.moduleLoadList.some((m) => m.includes('undici')) }));`,
    );
    expect(JSON.parse(out)).toEqual({ width: 42, fetch: false });
  }, 60_000);
});

describe('string-width rewrite', () => {
  it('measures exactly as string-width does, for every narrow character and for mixed text', async () => {
    const { default: original } = await import('string-width');
    const narrow = new RegExp(NARROW_TEXT);
    const samples: string[] = [];
    for (let cp = 0x20; cp <= 0x25ff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (narrow.test(ch)) samples.push(ch, `a${ch}b`);
    }
    // Text the fast path must not take: wide, emoji, combining, control, ANSI, zero-width.
    samples.push(
      '╭─ Team · 4 ─╮ ▕████░▏72%! …',
      '漢字 and │ box',
      '👍🏽 ok',
      'e\u0301│',
      '\u200b│',
      '│\u001b[31mred\u001b[39m│',
      'tab\there',
      '↔️',
      '⚠ warn',
      '',
    );
    const out = await runBundled(
      'width',
      `import stringWidth from 'string-width';
       const samples = ${JSON.stringify(samples)};
       console.log(JSON.stringify({ narrow: samples.map((s) => stringWidth(s)), wide: samples.map((s) => stringWidth(s, { ambiguousIsNarrow: false })) }));`,
    );
    const r = JSON.parse(out) as { narrow: number[]; wide: number[] };
    expect(samples.length).toBeGreaterThan(300);
    expect(r.narrow).toEqual(samples.map((s) => original(s)));
    expect(r.wide).toEqual(samples.map((s) => original(s, { ambiguousIsNarrow: false })));
  }, 60_000);

  it('builds no segmenter or property regex for ASCII and box-drawing text', () => {
    const patched = fastStringWidth(
      fs.readFileSync(path.join(REPO, 'node_modules', 'string-width', 'index.js'), 'utf8'),
    );
    expect(patched).not.toMatch(/^const segmenter = new Intl\.Segmenter\(\);$/m);
    expect(patched).toMatch(/const rgiEmojiRegex = lazyRegExp\(\(\) => /);
    expect(() => fastStringWidth('export default (s) => s.length;')).toThrow(/string-width/);
  });
});

describe('ansi-tokenize rewrite', () => {
  it('cuts styled text into exactly the cells ansi-tokenize does', async () => {
    const tokenizer = await import('@alcalzone/ansi-tokenize');
    const single = new RegExp(SINGLE_GRAPHEMES);
    const samples: string[] = [];
    for (let cp = 0x1b; cp <= 0x25ff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (single.test(ch)) samples.push(`a${ch}b`);
    }
    // Text the code-unit walk must not take: combining marks, joiners, CR LF, wide, emoji, links.
    samples.push(
      '\u001b[31m╭─ Team\u001b[39m · \u001b[1m\u001b[2m4\u001b[22m ─╮ ▕████░▏72%! …',
      '\u001b[38;2;255;0;0mtrue colour\u001b[39m and \u001b[48;5;22mbg\u001b[49m',
      '漢字 and │ box',
      '👍🏽 ok 👨‍👩‍👧',
      'e\u0301│a\u20dd',
      'line\r\nnext',
      '\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 after',
      '',
    );
    const out = await runBundled(
      'tokenize',
      `import { tokenize, styledCharsFromTokens, styledCharsToString } from '@alcalzone/ansi-tokenize';
       const samples = ${JSON.stringify(samples)};
       console.log(JSON.stringify(samples.map((s) => { const t = tokenize(s); return { t, row: styledCharsToString(styledCharsFromTokens(t)), cut: tokenize(s, 3) }; })));`,
    );
    const r = JSON.parse(out) as { t: unknown; row: string; cut: unknown }[];
    expect(samples.length).toBeGreaterThan(500);
    expect(r).toEqual(
      samples.map((s) => {
        const t = tokenizer.tokenize(s);
        return {
          t,
          row: tokenizer.styledCharsToString(tokenizer.styledCharsFromTokens(t)),
          cut: tokenizer.tokenize(s, 3),
        };
      }),
    );
  }, 60_000);

  it('finds its targets in the installed ansi-tokenize and refuses code it does not recognise', () => {
    const build = (name: string) =>
      fs.readFileSync(path.join(REPO, 'node_modules', '@alcalzone', 'ansi-tokenize', 'build', name), 'utf8');
    expect(fastTokenize(build('tokenize.js'))).not.toContain('const segmenter = new Intl.Segmenter');
    expect(() => fastTokenize('export const tokenize = () => [];')).toThrow(/ansi-tokenize tokenize/);
  });
});
