/** Checking that text read from untrusted files can't reach the screen with control characters in it. */
import { expect } from 'vitest';

/** Every C0 control except newline, DEL and C1: none may reach the screen. */
export const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Every string in a value (object keys included) that holds a control character other than newline. */
export function unsafeStrings(value: unknown): string[] {
  if (typeof value === 'string') return CONTROL.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(unsafeStrings);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => [...unsafeStrings(k), ...unsafeStrings(v)]);
  }
  return [];
}

/** Fails naming every string in `value` (keys included) that holds a control character. */
export function expectPrintable(value: unknown): void {
  expect(unsafeStrings(value)).toEqual([]);
}
