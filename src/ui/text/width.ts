/**
 * Display width: every line the control room draws is measured in terminal cells (string-width
 * semantics: wide CJK and emoji count 2, combining marks 0) and cut with … so it never wraps.
 */
import stringWidth from 'string-width';

// Made on first use: building one costs ~20 ms, and the screen's text rarely needs it (below).
let segmenter: Intl.Segmenter | null = null;
// Printable ASCII only: one cell per character, so length is the width.
const PLAIN = /^[\x20-\x7e]*$/;
/**
 * Printable ASCII and the always-narrow symbols the screen draws with (box drawing, blocks, arrows,
 * maths, dashes, quotes, the ellipsis, the middle dot, geometric shapes, the marks ✓ ✗ × › ❯ ✻ ★ ⚠,
 * braille spinners): each character one grapheme of one cell. Text with one character outside it
 * goes the grapheme walk, whose first use builds a segmenter and Unicode-property regexes (~50 ms
 * of the first frame when a `✗ problem` row was that text). The same set string-width's build-time
 * rewrite measures by length (scripts/bundle-patches.js).
 */
export const NARROW =
  /^[\u0020-\u007E\u00B7\u00D7\u2010-\u2027\u203A\u2190-\u21FF\u2200-\u22FF\u23BF\u23F8\u2500-\u25FC\u2605\u26A0\u2713-\u2717\u2722-\u2727\u2729-\u273D\u276F\u27E8\u27E9\u2800-\u28FF\u2B1D]*$/;

/** Cells `text` takes on screen. */
export function displayWidth(text: string): number {
  return PLAIN.test(text) || NARROW.test(text) ? text.length : stringWidth(text);
}

/** `text` cut to at most `max` cells, ending in … when something was cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return '';
  if (displayWidth(text) <= max) return text;
  if (max === 1) return '…';
  return `${sliceCells(text, max - 1)}…`;
}

/** The longest start of `text` that fits in `max` cells, cut between graphemes. */
export function sliceCells(text: string, max: number): string {
  if (PLAIN.test(text) || NARROW.test(text)) return text.slice(0, Math.max(0, max));
  let out = '';
  let used = 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > max) break;
    out += segment;
    used += w;
  }
  return out;
}

/** `text` cut and padded to exactly `cells` cells. */
export function fit(text: string, cells: number, align: 'left' | 'right' = 'left'): string {
  if (cells <= 0) return '';
  const cut = truncate(text, cells);
  const pad = ' '.repeat(Math.max(0, cells - displayWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** Splits text into lines of at most `cells` cells, breaking at spaces where it can (for gate bodies). */
export function wrapText(text: string, cells: number): string[] {
  if (cells <= 0) return [];
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    let line = '';
    for (const word of raw.split(/(\s+)/)) {
      if (word === '') continue;
      if (displayWidth(line + word) <= cells) {
        line += word;
        continue;
      }
      if (line.trim() !== '') out.push(line.trimEnd());
      line = word.trimStart();
      while (displayWidth(line) > cells) {
        const head = sliceCells(line, cells);
        // A grapheme wider than the whole line still has to go somewhere: drop it.
        const cut = head.length > 0 ? head : ([...line][0] ?? '');
        if (head.length === 0) {
          line = line.slice(cut.length);
          continue;
        }
        out.push(cut);
        line = line.slice(cut.length);
      }
    }
    out.push(line.trimEnd());
  }
  return out;
}
