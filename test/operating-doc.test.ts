/** docs/operating.md, an operator's first page: its table has a row for every action, and the README sends operators there first. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_KINDS } from '../src/kit/types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const doc = fs.readFileSync(path.join(REPO, 'docs', 'operating.md'), 'utf8');

describe('docs/operating.md', () => {
  it('has a row of the writes table for every action tower can run', () => {
    const rows = [...doc.matchAll(/^\| ([a-z]+) /gm)].map((m) => m[1]);
    expect(ACTION_KINDS.filter((kind) => !rows.includes(kind))).toEqual([]);
  });

  it('names only docs that exist', () => {
    const linked = [...doc.matchAll(/\]\(([a-z-]+\.md)\)/g)].map((m) => m[1] ?? '');
    expect(linked.length).toBeGreaterThan(4);
    expect(linked.filter((f) => !fs.existsSync(path.join(REPO, 'docs', f)))).toEqual([]);
  });

  it('is the first of the README’s further pages, and the glossary points operators to it', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const more = readme.slice(readme.indexOf('## More'));
    expect(more.indexOf('(docs/operating.md)')).toBeGreaterThan(0);
    expect(more.indexOf('(docs/operating.md)')).toBeLessThan(more.indexOf('(docs/systems.md)'));
    expect(fs.readFileSync(path.join(REPO, 'docs', 'glossary.md'), 'utf8')).toContain('(operating.md)');
  });
});
