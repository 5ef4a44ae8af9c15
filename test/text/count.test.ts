import { describe, expect, it } from 'vitest';
import { thousands } from '../../src/text/count.js';

describe('thousands', () => {
  it('writes an integer as en-US does, a comma every three digits', () => {
    for (const n of [0, 1, 12, 999, 1000, 10_000, 123_456, 1_234_567, -1, -1000, -987_654_321, Number.MAX_SAFE_INTEGER])
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves a number that is no safe integer as String writes it', () => {
    expect(thousands(1.5)).toBe('1.5');
    expect(thousands(Number.NaN)).toBe('NaN');
  });
});
