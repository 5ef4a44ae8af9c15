/**
 * A line of the screen as styled segments, fitted to an exact width before it is drawn. Views build
 * segments; only the Line component turns them into ink Text.
 */
import type { Tone } from '../theme.js';
import { displayWidth, sliceCells } from './width.js';

/** Colours and attributes read from a pane's own SGR (the preview); colours in ink's words. */
export interface SgrStyle {
  fg?: string | undefined;
  bg?: string | undefined;
  bold?: boolean | undefined;
  dim?: boolean | undefined;
  italic?: boolean | undefined;
  underline?: boolean | undefined;
  inverse?: boolean | undefined;
  strike?: boolean | undefined;
}

/** A run of text in one tone. */
export interface Segment {
  text: string;
  tone?: Tone | undefined;
  /** Drawn in reverse video (the selected row) when colour is on. */
  inverse?: boolean | undefined;
  /** A pane's own style (preview only); drawn only when colour is on. */
  sgr?: SgrStyle | undefined;
}

/** Total cells of a line. */
export function lineWidth(line: readonly Segment[]): number {
  return line.reduce((n, s) => n + displayWidth(s.text), 0);
}

/** The line cut (with …) and padded so it takes exactly `cells` cells. */
export function fitLine(line: readonly Segment[], cells: number): Segment[] {
  if (cells <= 0) return [];
  const total = lineWidth(line);
  if (total <= cells) return total === cells ? [...line] : [...line, { text: ' '.repeat(cells - total) }];
  // Too long: keep what fits in cells - 1, then … in the tone of the segment that was cut.
  const out: Segment[] = [];
  let budget = cells - 1;
  for (const s of line) {
    const w = displayWidth(s.text);
    if (w <= budget) {
      out.push(s);
      budget -= w;
      continue;
    }
    const head = sliceCells(s.text, budget);
    out.push({ ...s, text: `${head}…` });
    budget -= displayWidth(head);
    break;
  }
  if (budget > 0) out.push({ text: ' '.repeat(budget) });
  return out;
}

/** The same line, marked as the selected row. */
export function highlight(line: readonly Segment[]): Segment[] {
  return line.map((s) => ({ ...s, inverse: true }));
}

/** A blank line of `cells` cells. */
export function blank(cells: number): Segment[] {
  return cells > 0 ? [{ text: ' '.repeat(cells) }] : [];
}
