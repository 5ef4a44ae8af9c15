/**
 * Text an operator approves, with every character that shows as nothing or as another one written
 * out: `⟨U+0456⟩`. That is characters of no width or no shape (format characters such as tag
 * characters U+E0020–E007F, soft hyphens, zero-width and bidi controls; fillers such as U+3164;
 * line and paragraph separators; spaces other than the plain one), marks drawn over the character
 * before them (combining overlays, variation selectors), and letters of another script inside a
 * word of Latin letters (a Cyrillic `і` in `gіthub.com`). `⟨` itself is written out too, so a
 * marked form in the text can never pass for one tower made.
 */

/** Characters that show as nothing or as blank, and the mark's own opener. */
const HIDDEN = /[\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0\u2800\u27e8]/u;
/** Marks drawn over the character before them: combining overlays, variation selectors. */
const OVERLAY = /\p{M}/u;
/** A word (letters, marks and digits in a row), else one character. */
const TOKEN = /[\p{L}\p{M}\p{N}]+|[^]/gu;
const LATIN = /\p{Script=Latin}/u;
const NOT_LATIN_LETTER = /(?=\p{L})\P{Script=Latin}/u;
/** Text holding none of these needs no look (most commands are ASCII). */
const PLAIN = /^[\u0020-\u007e\n\t]*$/;

function mark(c: string): string {
  return `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** `text` with each hidden, overlaid or look-alike character written out as `⟨U+XXXX⟩`, and how many were. */
export function revealedWithCount(text: string): { text: string; marked: number } {
  if (PLAIN.test(text)) return { text, marked: 0 };
  let out = '';
  let marked = 0;
  for (const token of text.match(TOKEN) ?? []) {
    // A word of Latin letters (ASCII ones too) marks the letters of other scripts in it, and any
    // mark drawn over its letters; a word of another script alone keeps its own marks (Devanagari).
    const latin = LATIN.test(token);
    const mixed = latin && NOT_LATIN_LETTER.test(token);
    for (const c of token) {
      const suspect =
        HIDDEN.test(c) ||
        (OVERLAY.test(c) && (latin || token.length === c.length)) ||
        (mixed && NOT_LATIN_LETTER.test(c));
      if (suspect) marked++;
      out += suspect ? mark(c) : c;
    }
  }
  return { text: out, marked };
}

/** `text` with each hidden, overlaid or look-alike character written out as `⟨U+XXXX⟩`; plain text as it is. */
export function revealed(text: string): string {
  return revealedWithCount(text).text;
}
