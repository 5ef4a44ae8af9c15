/** The known word a typo was meant to be, when one is near enough (for "did you mean"). */
import { closest, distance } from 'fastest-levenshtein';

/**
 * The word of `among` nearest to `word`: one that differs only in case, else the closest within 2
 * edits or a third of the word; null when none is that near.
 */
export function nearWord(word: string, among: readonly string[]): string | null {
  if (among.length === 0) return null;
  const folded = among.find((w) => w.toLowerCase() === word.toLowerCase());
  if (folded !== undefined) return folded;
  const best = closest(word, [...among]);
  return distance(word, best) <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
