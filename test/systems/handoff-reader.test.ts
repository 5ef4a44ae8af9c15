/**
 * tower's own Markdown reader against the parser handoffs were read with before (micromark with
 * GitHub's extensions, test/helpers/micromark-handoff.ts): every handoff fixture and a generated
 * corpus of the shapes tina writes read to the same mdast tree and the same parsed handoff, and so
 * does Markdown soup made of the pieces handoffs are built from.
 *
 * Where the two readers differ, on input no handoff has, it is left out on purpose:
 * - named character references other than the ~90 common ones markdown-inline.ts lists (`&Aring;`)
 *   stay as written; micromark knows all 2,125 HTML names;
 * - containers nested more than 100 deep (`- > - > …` on one line) read as text beyond that depth;
 * - an unclosed code fence or indented code that a list item or block quote ends (a file damaged in
 *   its middle): micromark drops some of its trailing blank lines, and may read a bare `-` after it
 *   as a list item. The tree differs there, the parsed handoff does not (the last test below).
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { parseMarkdown } from '../../src/systems/tina/markdown.js';
import { NAMED_REFERENCES } from '../../src/systems/tina/markdown-inline.js';
import { FIXTURES, HANDOFF_FIXTURES, readFixture } from '../helpers/fixtures.js';
import { generatedHandoff } from '../helpers/handoff-corpus.js';
import { bareTree, micromarkHandoff, micromarkParse } from '../helpers/micromark-handoff.js';

/** test/fixtures/**\/handoff*.md, as paths under test/fixtures. */
function handoffFixtures(dir = FIXTURES): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return handoffFixtures(full);
    return /^handoff.*\.md$/.test(e.name) ? [path.relative(FIXTURES, full)] : [];
  });
}

function expectSameReading(text: string, label: string): void {
  expect(bareTree(parseMarkdown(text)), `${label}: mdast tree`).toEqual(bareTree(micromarkParse(text)));
  expect(parseHandoff(text, '/h.md'), `${label}: parsed handoff`).toEqual(micromarkHandoff(text, '/h.md'));
}

describe('the handoff reader reads as micromark did', () => {
  const fixtures = handoffFixtures();

  it('finds the handoff fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(8);
  });

  it('on every handoff fixture, as written and with CRLF line endings', () => {
    for (const rel of fixtures) {
      const text = fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
      expectSameReading(text, rel);
      expectSameReading(text.replace(/\n/g, '\r\n'), `${rel} (CRLF)`);
    }
  });

  it('on the three shapes cut off at every character, as a reader finds a file mid-write', () => {
    for (const rel of HANDOFF_FIXTURES) {
      const text = readFixture(rel);
      for (let i = 0; i <= text.length; i++) expect(bareTree(parseMarkdown(text.slice(0, i))), `${rel} cut at ${i}`).toEqual(bareTree(micromarkParse(text.slice(0, i))));
    }
  });

  it('on 300 generated handoffs of the three shapes with their variations', () => {
    for (let seed = 1; seed <= 300; seed++) expectSameReading(generatedHandoff(seed), `generated handoff ${seed}`);
  });
});

/** The pieces of handoff Markdown the soup is made of: markers, indentation, pipes, fences, escapes, line endings. */
const PIECES = [
  '\n', '\n', '\r\n', '\r', ' ', '  ', '   ', '    ', '\t', '- ', '* ', '+ ', '1. ', '2) ', '> ', '#', '## ', '### ', '|', ' | ',
  '|---|---|\n', ':-', '---', '***', '===', '```', '```json\n', '~~~', '`', '\\', '\\|', '&amp;', '&#x41;', '&nbsp;', '&#10;',
  '[x] ', '[ ] ', 'word', 'Task 1: x', '**Plan path:**', '_', '&', '{"a": 1}',
];

describe('the handoff reader reads Markdown soup as micromark does', () => {
  it('on 2,000 soups of handoff pieces (a fixed seed, so a failure can be replayed)', () => {
    const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(soup, (text) => {
        expect(bareTree(parseMarkdown(text))).toEqual(bareTree(micromarkParse(text)));
      }),
      { numRuns: 2000, seed: 20261122 },
    );
  });
});

describe('character references', () => {
  it('decode as micromark decodes them, for every name the reader knows, in text, code info and table cells', () => {
    const names = Object.keys(NAMED_REFERENCES);
    expect(names.length).toBeGreaterThan(90);
    const refs = names.map((n) => `&${n};`).join(' ');
    const text = `${refs}\n\n\`\`\`${refs}\nx\n\`\`\`\n\n| a |\n|---|\n| ${refs} |\n\n&#65; &#x1F600; &#0; &#xD800; &#1114112; &#127; &#12; &bogus; &amp`;
    expect(bareTree(parseMarkdown(text))).toEqual(bareTree(micromarkParse(text)));
  });
});

describe('the handoff reader on hostile nesting', () => {
  it('reads containers beyond 100 deep as text, and the lines after them as usual', () => {
    const deep = `${'- > '.repeat(5000)}deep\n\n## Notes\n- after\n`;
    const root = parseMarkdown(deep);
    let depth = 0;
    for (let node: unknown = root.children[0]; node && typeof node === 'object' && 'children' in node; depth++) {
      node = (node as { children: unknown[] }).children[0];
    }
    expect(depth).toBeGreaterThan(90);
    expect(depth).toBeLessThan(120);
    expect(parseHandoff(deep, '/h.md').handoff.notes).toEqual(['after']);
  });
});

describe('the parsed handoff is the same as with micromark', () => {
  it('on generated handoffs with pieces of Markdown and escape sequences spliced in anywhere (fixed seed)', () => {
    const junk = fc.array(fc.constantFrom(...PIECES, '\u0000', '\u001b[31m', '\ufeff', '<div>', '[a](b)', '<http://x>', '[^1]: n\n'), { minLength: 1, maxLength: 6 });
    const spliced = fc.tuple(fc.integer({ min: 1, max: 400 }), fc.array(fc.tuple(fc.nat(), junk), { minLength: 1, maxLength: 6 })).map(([seed, cuts]) =>
      cuts.reduce((text, [at, pieces]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + pieces.join('') + text.slice(i);
      }, generatedHandoff(seed)),
    );
    fc.assert(
      fc.property(spliced, (text) => {
        expect(parseHandoff(text, '/h.md')).toEqual(micromarkHandoff(text, '/h.md'));
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });
});
