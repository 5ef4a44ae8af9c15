/**
 * A pane's border with its title in the top edge. Focus shows in words and shape, not only colour:
 * the focused pane has a heavy border and its title reads `[> Team · 4]`.
 */
import type { Rect } from '../geometry.js';
import type { Segment } from '../text/segments.js';
import { blank, fitLine, lineWidth } from '../text/segments.js';
import { truncate } from '../text/width.js';

const LIGHT = { tl: '╭', tr: '╮', bl: '╰', br: '╯', h: '─', v: '│' };
const HEAVY = { tl: '┏', tr: '┓', bl: '┗', br: '┛', h: '━', v: '┃' };

/** The pane as lines: border, title, and `content` fitted inside (cut or padded to the rect). */
export function frameLines(
  title: string,
  focused: boolean,
  rect: Rect,
  content: readonly (readonly Segment[])[],
): Segment[][] {
  const { width, height } = rect;
  if (width < 4 || height < 2) return Array.from({ length: Math.max(0, height) }, () => blank(width));
  const b = focused ? HEAVY : LIGHT;
  const tone = focused ? 'accent' : 'dim';
  const inner = width - 2;
  const label = truncate(focused ? `[> ${title}]` : ` ${title} `, Math.max(0, inner - 2));
  const top: Segment[] = [
    { text: b.tl + b.h, tone },
    { text: label, tone: focused ? 'title' : 'plain' },
  ];
  top.push({ text: b.h.repeat(Math.max(0, width - 1 - lineWidth(top))) + b.tr, tone });
  const lines: Segment[][] = [top];
  for (let i = 0; i < height - 2; i++) {
    lines.push([{ text: b.v, tone }, ...fitLine(content[i] ?? [], inner), { text: b.v, tone }]);
  }
  lines.push([{ text: b.bl + b.h.repeat(inner) + b.br, tone }]);
  return lines;
}

/** What a framed pane draws: its title and content lines in a border `width` × `height` cells. */
export interface FramedProps {
  title: string;
  focused: boolean;
  width: number;
  height: number;
  content: readonly (readonly Segment[])[];
}

/** A pane's content in its frame (frameLines with one props object, for the screen's memo). */
export function framedPane(p: FramedProps): Segment[][] {
  return frameLines(p.title, p.focused, p, p.content);
}

/** Rows of a list window: the first row index so that `cursor` is visible in `height` rows. */
export function windowStart(count: number, cursor: number, height: number): number {
  if (count <= height || height <= 0) return 0;
  return Math.max(0, Math.min(cursor - Math.floor((height - 1) / 2), count - height));
}
