/**
 * sanitize and sanitizeLine return printable ASCII untouched without running their expressions:
 * whatever the text, the result is the one the full strip-and-escape gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeInvisible, ESCAPE_SEQUENCES, sanitize, sanitizeLine } from '../../src/text/sanitize.js';

/** The full treatment, without the printable-ASCII shortcut. */
function slowSanitize(text: string): string {
  const stripped = text.replace(ESCAPE_SEQUENCES, '');
  return escapeInvisible(stripped.replace(/\t/g, '  ').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ''));
}

// Printable ASCII with the characters the shortcut must notice mixed in.
const tricky = fc.constantFrom(
  '\n',
  '\r',
  '\t',
  '\u001b[31m',
  '\u001b]0;title\u0007',
  '\u009b2J',
  '\u007f',
  '\u0000',
  '\u202e',
  '\u200b',
  '\ufeff',
  'é',
  '漢',
  '│',
);
const text = fc
  .array(
    fc.oneof(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }), tricky),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('sanitize', () => {
  it("gives the full treatment's result for any text, plain or not", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(sanitize(t)).toBe(slowSanitize(t));
        expect(sanitizeLine(t)).toBe(slowSanitize(t).replace(/[\r\n]+/g, ' '));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves plain text as it is and still cleans the rest', () => {
    expect(sanitizeLine('Task 12 of feature-01 [x] ~ok~')).toBe('Task 12 of feature-01 [x] ~ok~');
    expect(sanitize('two\nlines')).toBe('two\nlines');
    expect(sanitizeLine('two\nlines')).toBe('two lines');
    expect(sanitizeLine('\u001b[31mred\u001b[0m\tx')).toBe('red  x');
    expect(sanitizeLine('a\u202eb')).toBe('a<U+202E>b');
  });
});
