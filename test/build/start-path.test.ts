/**
 * The start paths stay small: the JavaScript `tower status`, the control room's first frame and its
 * live screen load (cli.js, the command's lazily imported module and their static imports, from
 * esbuild's metafile of the real bundle) stays within the recorded budgets, and the screen's
 * machinery stays off the paths that do not draw with it.
 */
import { describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.js';
import { byPackage, KEPT_OFF, offenders, START_BUDGETS, startPaths } from '../../scripts/start-paths.js';
import type { StartPath } from '../../scripts/start-paths.js';
import { tempDir } from '../helpers/box.js';
import fs from 'node:fs';

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const describePath = (p: StartPath) =>
  byPackage(p.inputs)
    .slice(0, 8)
    .map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)
    .join(', ');

describe('start paths', () => {
  let paths: Record<string, StartPath> = {};

  it('are found in the bundle', async () => {
    const out = tempDir('tower-start-paths-');
    try {
      const result = await bundle(out, undefined, { metafile: true, write: false, logLevel: 'error' });
      if (!result.metafile) throw new Error('no metafile');
      paths = startPaths(result.metafile);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
    expect(Object.keys(paths).sort()).toEqual(Object.keys(START_BUDGETS).sort());
  }, 120_000);

  for (const [name, budget] of Object.entries(START_BUDGETS)) {
    it(`${name} loads at most ${kb(budget)}`, () => {
      const p = paths[name];
      if (!p) throw new Error(`no start path ${name}`);
      expect(p.bytes, `${name}: ${kb(p.bytes)} (${describePath(p)})`).toBeLessThanOrEqual(budget);
      const packages = new Set(byPackage(p.inputs).map(([pkg]) => pkg));
      expect(offenders(KEPT_OFF[name] ?? [], packages)).toEqual([]);
    });
  }
});

describe('packages kept off the start paths', () => {
  it('are named exactly or by a prefix ending in *', () => {
    expect(
      offenders(['zod', 'micromark*'], ['zod', 'zod-extra', 'micromark', 'micromark-util-chunked', 'mdast']),
    ).toEqual(['zod', 'micromark', 'micromark-util-chunked']);
  });

  it('include the Markdown library on every path', () => {
    for (const name of Object.keys(START_BUDGETS))
      expect(offenders(KEPT_OFF[name] ?? [], ['micromark-core-commonmark', 'mdast-util-from-markdown'])).toHaveLength(
        2,
      );
  });
});
