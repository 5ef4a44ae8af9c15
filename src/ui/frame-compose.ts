/**
 * Placed blocks of styled segments → the rows of text the painter writes. Each line of a block is
 * styled once (chalk, as the theme says) and kept for as long as the same line object is drawn, so
 * a frame in which one pane changed styles that pane's lines and joins the rest as they were.
 *
 * Why not ink: drawing the screen through ink cost ~20 ms of CPU a frame on a 120×40 screen (React
 * reconciling every pane's Text nodes, yoga laying them out, ink cutting every line into a grid of
 * styled cells and joining it back), for lines tower had already fitted to their cells. Composing
 * the rows here costs well under a millisecond when one pane changed (test/bench/scale.bench.ts
 * prints the screen's CPU per change).
 */
import chalk from 'chalk';
import type { Segment } from './text/segments.js';
import { fitLine, lineWidth } from './text/segments.js';
import { sliceCells, displayWidth } from './text/width.js';
import type { Theme } from './theme.js';
import type { Placed } from './screen-blocks.js';

type Paint = (text: string) => string;

function colour(color: string, layer: 'foreground' | 'background'): Paint {
  if (color.startsWith('#')) return layer === 'foreground' ? chalk.hex(color) : chalk.bgHex(color);
  const name = layer === 'foreground' ? color : `bg${color[0]?.toUpperCase() ?? ''}${color.slice(1)}`;
  const style = (chalk as unknown as Record<string, Paint | undefined>)[name];
  return style ?? ((t) => t);
}

/** A segment styled: the tone, a pane's own SGR (colour on), the selected row's background. */
export function styleSegment(segment: Segment, theme: Theme): string {
  const tone = theme.style(segment.tone ?? 'plain');
  const sgr = segment.sgr && theme.color ? segment.sgr : undefined;
  const selected = segment.inverse ? theme.selected : undefined;
  const dim = selected?.dimColor ?? sgr?.dim ?? tone.dimColor;
  const fg = selected?.color ?? sgr?.fg ?? tone.color;
  const bg = selected?.backgroundColor ?? sgr?.bg ?? tone.backgroundColor;
  const bold = selected?.bold ?? sgr?.bold ?? tone.bold;
  const inverse = selected?.inverse ?? sgr?.inverse ?? tone.inverse;
  let text = segment.text;
  if (text === '') return '';
  if (dim) text = chalk.dim(text);
  if (fg) text = colour(fg, 'foreground')(text);
  if (bg) text = colour(bg, 'background')(text);
  if (bold) text = chalk.bold(text);
  if (sgr?.italic) text = chalk.italic(text);
  if (sgr?.underline) text = chalk.underline(text);
  if (sgr?.strike) text = chalk.strikethrough(text);
  if (inverse) text = chalk.inverse(text);
  return text;
}

/** The cells [a, b) of a text, exactly b - a cells: a wide character cut at either edge is blanks. */
function cellSlice(text: string, a: number, b: number): string {
  const before = sliceCells(text, a);
  let rest = text.slice(before.length);
  let out = '';
  const straddle = a - displayWidth(before);
  if (straddle > 0) {
    // The right half of a wide character that starts before `a`: it cannot be drawn alone.
    rest = rest.slice(sliceCells(rest, straddle + 1).length);
    out = ' '.repeat(straddle);
  }
  out += sliceCells(rest, b - a - straddle);
  return out + ' '.repeat(Math.max(0, b - a - displayWidth(out)));
}

/** The cells [from, to) of a line, as segments exactly to - from cells wide. */
export function cutLine(line: readonly Segment[], from: number, to: number): Segment[] {
  const out: Segment[] = [];
  let x = 0;
  for (const s of line) {
    if (x >= to) break;
    const w = displayWidth(s.text);
    const start = Math.max(from, x);
    const end = Math.min(to, x + w);
    if (end > start) out.push({ ...s, text: cellSlice(s.text, start - x, end - x) });
    x += w;
  }
  const total = lineWidth(out);
  if (total < to - from) out.push({ text: ' '.repeat(to - from - total) });
  return out;
}

/** Turns blocks into rows of text, styling each line object once. */
export class FrameComposer {
  private styled = new WeakMap<readonly Segment[], { width: number; text: string }>();
  /** How many lines were styled (not found styled already): the recompose test counts them. */
  linesStyled = 0;

  constructor(private readonly theme: Theme) {}

  /** A line styled, exactly `width` cells wide (cut or padded). */
  private line(line: readonly Segment[], width: number): string {
    const kept = this.styled.get(line);
    if (kept && kept.width === width) return kept.text;
    const fitted = lineWidth(line) === width ? line : fitLine(line, width);
    let text = '';
    for (const s of fitted) text += styleSegment(s, this.theme);
    this.linesStyled++;
    this.styled.set(line, { width, text });
    return text;
  }

  /** The rows of a `width` × `height` screen; rows end without trailing blanks. */
  compose(blocks: readonly Placed[], width: number, height: number): string[] {
    const parts: { x: number; width: number; line: readonly Segment[] }[][] = Array.from({ length: height }, () => []);
    const overs: Placed[] = [];
    for (const block of blocks) {
      if (block.over) {
        overs.push(block);
        continue;
      }
      block.lines.forEach((line, i) => parts[block.y + i]?.push({ x: block.x, width: block.width, line }));
    }
    const rows: string[] = [];
    for (let y = 0; y < height; y++) {
      const row = (parts[y] ?? []).sort((a, b) => a.x - b.x);
      const over = overs.find((o) => y >= o.y && y < o.y + o.lines.length);
      let text = '';
      if (over) {
        // Under a dialog: the row as segments, the dialog's line put over its cells.
        const segments: Segment[] = [];
        let x = 0;
        for (const p of row) {
          if (p.x > x) segments.push({ text: ' '.repeat(p.x - x) });
          const cells = Math.min(p.width, width - p.x);
          segments.push(...fitLine(p.line, cells));
          x = p.x + cells;
        }
        if (x < width) segments.push({ text: ' '.repeat(width - x) });
        const right = Math.min(width, over.x + over.width);
        const spliced = [
          ...cutLine(segments, 0, over.x),
          ...fitLine(over.lines[y - over.y] ?? [], right - over.x),
          ...cutLine(segments, right, width),
        ];
        for (const s of spliced) text += styleSegment(s, this.theme);
      } else {
        let x = 0;
        for (const p of row) {
          if (p.x >= width) break;
          if (p.x > x) text += ' '.repeat(p.x - x);
          const cells = Math.min(p.width, width - p.x);
          text += this.line(p.line, cells);
          x = p.x + cells;
        }
      }
      rows.push(text.trimEnd());
    }
    return rows;
  }
}
