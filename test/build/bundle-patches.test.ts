/**
 * The build-time rewrites of dependencies: each finds its target in the installed version (else the
 * build fails), the rewritten modules still work, and the bundled yoga loader no longer makes Node
 * load its fetch implementation. ink's text measuring is left as it is because the screen never
 * hands ink a text: a test below fails the day it does.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fastStringWidth,
  lazyTokenizeSegmenter,
  NARROW_TEXT,
  noFetchProbe,
  patchDependencies,
} from '../../scripts/bundle-patches.js';
import { tempDir } from '../helpers/box.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
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
  it('find their target in the installed yoga-layout, and refuse code they do not recognise', () => {
    const yoga = path.join(REPO, 'node_modules', 'yoga-layout', 'dist', 'binaries', 'yoga-wasm-base64-esm.js');
    expect(noFetchProbe(fs.readFileSync(yoga, 'utf8'))).not.toMatch(/typeof fetch\b/);
    expect(() => noFetchProbe('export {};')).toThrow(/yoga-layout/);
  });

  it('need none for ink: the screen gives ink no <Text> or <Box> to measure, wrap or tokenize', () => {
    // ink's measure-text and wrap-text keep every text they are given, unbounded; the screen composes
    // its own rows (src/ui/frame-compose.ts) and ink only reads the keys, so they never run.
    const uses: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(e.name)) {
          const source = fs.readFileSync(file, 'utf8');
          for (const m of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'ink'/g))
            for (const name of (m[1] ?? '').split(',').map((n) => n.trim()))
              if (['Text', 'Box', 'Static', 'Transform', 'Newline', 'Spacer'].includes(name))
                uses.push(`${path.relative(REPO, file)}: ${name}`);
        }
      }
    };
    walk(path.join(REPO, 'src'));
    expect(uses).toEqual([]);
  });

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
    for (let cp = 0x20; cp <= 0x2bff; cp++) {
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
      '⚠️ warn',
      '✗ problem ✓ ❯ › × ★ ⠋',
      '✅ ◽ ⭐ ❌',
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
  it('cuts styled text into exactly the cells ansi-tokenize does, its segmenter made on first use', async () => {
    const tokenizer = await import('@alcalzone/ansi-tokenize');
    const samples = [
      '\u001b[31m╭─ Team\u001b[39m · \u001b[1m\u001b[2m4\u001b[22m ─╮ ▕████░▏72%! …',
      '\u001b[38;2;255;0;0mtrue colour\u001b[39m and \u001b[48;5;22mbg\u001b[49m',
      '漢字 and │ box',
      '👍🏽 ok 👨‍👩‍👧',
      'e\u0301│a\u20dd',
      'line\r\nnext',
      '\u001b]8;;https://x.test\u0007link\u001b]8;;\u0007 after',
      '',
    ];
    const out = await runBundled(
      'tokenize',
      `import { tokenize, styledCharsFromTokens, styledCharsToString } from '@alcalzone/ansi-tokenize';
       const samples = ${JSON.stringify(samples)};
       console.log(JSON.stringify(samples.map((s) => { const t = tokenize(s); return { t, row: styledCharsToString(styledCharsFromTokens(t)), cut: tokenize(s, 3) }; })));`,
    );
    const r = JSON.parse(out) as { t: unknown; row: string; cut: unknown }[];
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

  it('finds its target in the installed ansi-tokenize and refuses code it does not recognise', () => {
    const source = fs.readFileSync(
      path.join(REPO, 'node_modules', '@alcalzone', 'ansi-tokenize', 'build', 'tokenize.js'),
      'utf8',
    );
    expect(lazyTokenizeSegmenter(source)).not.toContain('const segmenter = new Intl.Segmenter');
    expect(() => lazyTokenizeSegmenter('export const tokenize = () => [];')).toThrow(/ansi-tokenize tokenize/);
    const other = source + '\nexport const locale = segmenter.resolvedOptions();';
    expect(() => lazyTokenizeSegmenter(other)).toThrow(/more than segment/);
  });
});
