import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHandoff } from '../../src/sources/handoff.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const RUNS = { numRuns: 1000 };
// Every C0 control except newline, DEL and C1: none may reach the screen.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const SHAPES = ['january', 'plan', 'current', 'unknown'];

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

function check(text: string): void {
  const r = parseHandoff(text, '/phase-1/handoff.md');
  expect(SHAPES).toContain(r.handoff.shape);
  expect(Array.isArray(r.problems)).toBe(true);
  if (r.handoff.shape === 'unknown') expect(r.problems.length).toBeGreaterThan(0);
  for (const s of strings(r)) expect(s).not.toMatch(CONTROL);
}

const samples = [
  fs.readFileSync(path.join(FIXTURES, 'samples/tina/handoff.skill-2026-01-26.md'), 'utf8'),
  fs.readFileSync(path.join(FIXTURES, 'samples/tina/handoff.skill-head.md'), 'utf8'),
  fs.readFileSync(path.join(FIXTURES, 'tina/handoff.seed-003.md'), 'utf8'),
];
const sample = fc.constantFrom(...samples);

/** Pieces of handoff Markdown, escape sequences and structure characters, in any order. */
const token = fc.constantFrom(
  '## Timestamp\n', '## Reason\n', '## Team Composition\n', '## Task States\n', '## Task State\n', '### In Progress\n',
  '## Review Tracking\n', '## Notes\n', '## Plan Path\n', '**Checkpoint time:** ', '**Plan path:**', '| ID | Subject | Status | Owner |\n',
  '|----|----|----|----|\n', '| 1 | a | pending | - |\n', '|', '- Task 1: ', '- [x] Task 2: s\n', '  - Owner: w\n', '  - Spec review: passed\n',
  '- worker-1: tina:implementer\n', '- Workers: a, b\n', '```json\n', '```\n', '{"task-3": {"spec_review": "passed"}}', '[{"result":"gaps"}]',
  '\u001b', '\u001b[31m', '\u001b]0;t\u0007', '\u001bP+q\u001b\\', '\u009b2J', '\r', '\n', '\t', '\u0000', '\u0008', '\u007f', '*', '`', '>', ' ',
  '2026-01-26T10:30:00Z', 'Task 3', ':', ',', 'changes requested',
);
const soup = fc.array(fc.oneof(token, fc.string({ maxLength: 6 })), { maxLength: 40 }).map((a) => a.join(''));

describe('parseHandoff never throws and returns only printable text', () => {
  it('on random strings of any characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), check), RUNS);
  });

  it('on Markdown soup made of handoff pieces and escape sequences', () => {
    fc.assert(fc.property(soup, check), RUNS);
  });

  it('on the real handoffs cut off mid-write', () => {
    fc.assert(fc.property(sample, fc.double({ min: 0, max: 1, noNaN: true }), (text, f) => check(text.slice(0, Math.floor(text.length * f)))), RUNS);
  });

  it('on the real handoffs with junk spliced in', () => {
    fc.assert(
      fc.property(sample, fc.nat(), soup, (text, at, junk) => {
        const i = at % (text.length + 1);
        check(text.slice(0, i) + junk + text.slice(i));
      }),
      RUNS,
    );
  });
});
