/** "Did you mean": the word closest to a typo, when it is close enough to be what was meant. */
import type { UsageError } from './args.js';

/** The usage error's message, with the closest known word when one is near (at most 2 edits, or a third of it). */
export async function withSuggestion(err: UsageError): Promise<string> {
  const typo = err.typo;
  if (!typo || typo.among.length === 0) return err.message;
  // Loaded on this path alone: a command line that parses never needs it.
  const mod = await import('fastest-levenshtein');
  // A CommonJS package: bundled, its exports may arrive as the default export.
  const { closest, distance } = typeof mod.closest === 'function' ? mod : mod.default;
  const best = closest(typo.word, [...typo.among]);
  const edits = distance(typo.word, best);
  if (edits > Math.max(2, Math.floor(typo.word.length / 3))) return err.message;
  return `${err.message}; did you mean '${best}'?`;
}
