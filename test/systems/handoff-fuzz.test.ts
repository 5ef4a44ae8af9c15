import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import { HANDOFF_FIXTURES, readFixture } from '../helpers/fixtures.js';
import { ESCAPES, RUNS, soup, truncated } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

const SHAPES = ['january', 'plan', 'current', 'unknown'];

function check(text: string): void {
  const r = parseHandoff(text, '/phase-1/handoff.md', readMarkdown);
  expect(SHAPES).toContain(r.handoff.shape);
  expect(Array.isArray(r.problems)).toBe(true);
  if (r.handoff.shape === 'unknown') expect(r.problems.length).toBeGreaterThan(0);
  expectPrintable(r);
}

const sample = fc.constantFrom(...HANDOFF_FIXTURES.map(readFixture));

/** Pieces of handoff Markdown, escape sequences and structure characters, in any order. */
const markdownSoup = soup(
  [
    '## Timestamp\n',
    '## Reason\n',
    '## Team Composition\n',
    '## Task States\n',
    '## Task State\n',
    '### In Progress\n',
    '## Review Tracking\n',
    '## Notes\n',
    '## Plan Path\n',
    '**Checkpoint time:** ',
    '**Plan path:**',
    '| ID | Subject | Status | Owner |\n',
    '|----|----|----|----|\n',
    '| 1 | a | pending | - |\n',
    '|',
    '- Task 1: ',
    '- [x] Task 2: s\n',
    '  - Owner: w\n',
    '  - Spec review: passed\n',
    '- worker-1: tina:implementer\n',
    '- Workers: a, b\n',
    '```json\n',
    '```\n',
    '{"task-3": {"spec_review": "passed"}}',
    '[{"result":"gaps"}]',
    ...ESCAPES,
    '\u001bP+q\u001b\\',
    '\u009b2J',
    '\u0008',
    '\u007f',
    '*',
    '`',
    '>',
    ' ',
    '2026-01-26T10:30:00Z',
    'Task 3',
    ':',
    ',',
    'changes requested',
  ],
  6,
);

// Each property parses hundreds of generated handoffs: on a busy two-core machine a property has
// taken more than the default 30 s.
describe('parseHandoff never throws and returns only printable text', { timeout: 120_000 }, () => {
  it('on random strings of any characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), check), RUNS);
  });

  it('on Markdown soup made of handoff pieces and escape sequences', () => {
    fc.assert(fc.property(markdownSoup, check), RUNS);
  });

  it('on the real handoffs cut off mid-write', () => {
    fc.assert(fc.property(truncated(...HANDOFF_FIXTURES), check), RUNS);
  });

  it('on the real handoffs with junk spliced in', () => {
    fc.assert(
      fc.property(sample, fc.nat(), markdownSoup, (text, at, junk) => {
        const i = at % (text.length + 1);
        check(text.slice(0, i) + junk + text.slice(i));
      }),
      RUNS,
    );
  });
});
