/** docs/glossary.md, for a contributor new to the code: each word the code made up has an entry, and each file it names is there. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '..');
const doc = fs.readFileSync(path.join(REPO, 'docs', 'glossary.md'), 'utf8');

describe('docs/glossary.md', () => {
  it('has an entry for each word the code made up for itself', () => {
    const entries = [...doc.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
    for (const word of ['door', 'book', 'kit', 'look', 'deferred']) expect(entries).toContain(word);
  });

  it('names only files and folders that exist', () => {
    const named = [...doc.matchAll(/`(src\/[^`<>*\s]+)`/g)].map((m) => m[1] ?? '');
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter((p) => !fs.existsSync(path.join(REPO, p)))).toEqual([]);
  });

  it('is linked from the README and from docs/layers.md', () => {
    expect(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8')).toContain('(docs/glossary.md)');
    expect(fs.readFileSync(path.join(REPO, 'docs', 'layers.md'), 'utf8')).toContain('(glossary.md)');
  });
});
