/** Shared pieces of the parsers' property tests: the run count, real files cut off, hostile text and values. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { readFixture } from './fixtures.js';
import { expectPrintable } from './printable.js';

/** Every property runs this often. */
export const RUNS = { numRuns: 1000 };

/** One of the fixture files `rels` (paths under test/fixtures) cut off anywhere, empty and whole included: a file caught mid-write. */
export function truncated(...rels: string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...rels.map(readFixture)).chain((t) => fc.nat({ max: t.length }).map((n) => t.slice(0, n)));
}

/** As `truncated`, parsed when what is left is still JSON: a reader may be handed either. */
export function truncatedJson(...rels: string[]): fc.Arbitrary<unknown> {
  return truncated(...rels).map((t) => {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return t;
    }
  });
}

/** Escape sequences and control characters that every hostile text mixes in. */
export const ESCAPES = ['\u001b', '\u001b[31m', '\u001b]0;t\u0007', '\r', '\n', '\t', '\u0000'] as const;

/** `tokens` (escapes, the words a parser looks for) and short random strings, up to 40 pieces in any order. */
export function soup(tokens: readonly string[], pieceLength = 8): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: pieceLength })), { maxLength: 40 })
    .map((a) => a.join(''));
}

/** Random characters of any kind (up to `maxLength`), or a soup of `tokens`. */
export function hostileText(tokens: readonly string[], maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(fc.string({ unit: 'binary', maxLength }), soup(tokens));
}

/** A string a JSON field may hold: random characters (up to 30), one of `words`, or text with escapes in it. */
export function fieldString(words: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom(...words, '\u001b[2J', 'a\u0007b', '\u009b1m', ''),
  );
}

/** A JSON field value of any type, its strings drawn from `str`. */
export function fieldValue(str: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(str, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
}

/** A parser result: a value (possibly null) and a list of problems, every string printable. */
export function expectCleanResult(r: { value: unknown; problems: unknown[] }): void {
  expect(r).toHaveProperty('value');
  expect(Array.isArray(r.problems)).toBe(true);
  expectPrintable(r);
}
