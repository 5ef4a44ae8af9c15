/**
 * A count with thousands separators (`10,000`), written out by hand: the first
 * `toLocaleString` of a process loads ICU's locale data, 40–80 ms on a slow machine, and the
 * opening frame is drawn before anything else would need it.
 */

/** `n` with a comma every three digits, as `n.toLocaleString('en-US')` writes an integer. */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}
