/** The README's key table lives between two markers; this puts the generated one there. Pure. */
import { keyTableMarkdown } from '../keys/keymap.js';

export const KEYS_START = '<!-- keys:start -->';
export const KEYS_END = '<!-- keys:end -->';

/** The README with the text between the markers replaced by the key table; throws without markers. */
export function withKeyTable(readme: string, table: string = keyTableMarkdown()): string {
  const start = readme.indexOf(KEYS_START);
  const end = readme.indexOf(KEYS_END);
  if (start < 0 || end < start) throw new Error(`README has no ${KEYS_START} … ${KEYS_END} section`);
  return `${readme.slice(0, start + KEYS_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The text currently between the markers (trimmed), or null. */
export function currentKeyTable(readme: string): string | null {
  const start = readme.indexOf(KEYS_START);
  const end = readme.indexOf(KEYS_END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + KEYS_START.length, end).trim();
}
