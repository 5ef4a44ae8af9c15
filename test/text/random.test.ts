/**
 * Random hex handed out from one read of the random device: every nonce fresh and whole, whatever
 * sizes are asked and however they cross the reads.
 */
import { describe, expect, it } from 'vitest';
import { randomHex } from '../../src/text/random.js';

describe('randomHex', () => {
  it('gives each call its own bytes, of the length asked, across many reads of the device', () => {
    const seen = new Set<string>();
    const sizes = [16, 12, 4, 8, 16, 3, 512, 1, 16, 700];
    for (let i = 0; i < 3000; i++) {
      const bytes = sizes[i % sizes.length] as number;
      const hex = randomHex(bytes);
      expect(hex).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
      if (bytes >= 8) {
        expect(seen.has(hex)).toBe(false);
        seen.add(hex);
      }
    }
    // Not all one byte: a pool handed out after it was cleared would read as zeros.
    const long = randomHex(64);
    expect(new Set(long).size).toBeGreaterThan(8);
    expect(long).not.toMatch(/^(00)+$/);
  });
});
