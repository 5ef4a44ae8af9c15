/**
 * Placed blocks of styled segments → the exact frame text ink would give for the same screen: each
 * segment styled as ink's Text styles it (chalk, in the same order), the line cut into styled cells
 * on a grid of the terminal's width, each row serialised with ansi-tokenize and trimmed at the end.
 * Byte for byte the same as ink's, so the painter finds nothing to repaint when ink takes over.
 */
import { styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize';
import type { StyledChar } from '@alcalzone/ansi-tokenize';
import chalk from 'chalk';
import stringWidth from 'string-width';
import type { Segment } from '../text/segments.js';
import type { TextStyle, Theme } from '../theme.js';
import type { OpeningScreen, Placed } from './screen-rows.js';
import { openingScreen } from './screen-rows.js';

function colorize(text: string, color: string, layer: 'foreground' | 'background'): string {
  if (color.startsWith('#')) return layer === 'foreground' ? chalk.hex(color)(text) : chalk.bgHex(color)(text);
  const name = layer === 'foreground' ? color : `bg${color[0]?.toUpperCase() ?? ''}${color.slice(1)}`;
  const style = (chalk as unknown as Record<string, ((s: string) => string) | undefined>)[name];
  return style ? style(text) : text;
}

/** A segment as ink's Text renders it: dim, colour, background, bold, inverse, in that order. */
export function styleSegment(segment: Segment, theme: Theme): string {
  const style: TextStyle = { ...theme.style(segment.tone ?? 'plain'), ...(segment.inverse ? theme.selected : {}) };
  let text = segment.text;
  if (style.dimColor) text = chalk.dim(text);
  if (style.color) text = colorize(text, style.color, 'foreground');
  if (style.backgroundColor) text = colorize(text, style.backgroundColor, 'background');
  if (style.bold) text = chalk.bold(text);
  if (style.inverse) text = chalk.inverse(text);
  return text;
}

// One blank cell fills the whole grid: cells are replaced, never changed, so it is never written to.
const BLANK: StyledChar = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) as unknown as StyledChar['styles'] });

/** The frame text of `blocks` on a grid of `width` × `height` cells. */
export function frameText(blocks: readonly Placed[], width: number, height: number, theme: Theme): string {
  const grid: StyledChar[][] = Array.from({ length: height }, () => new Array<StyledChar>(width).fill(BLANK));
  for (const block of blocks) {
    block.lines.forEach((line, i) => {
      const row = grid[block.y + i];
      if (!row) return;
      let x = block.x;
      for (const cell of styledCharsFromTokens(tokenize(line.map((s) => styleSegment(s, theme)).join('')))) {
        row[x] = cell;
        const cells = Math.max(1, stringWidth(cell.value));
        // A wide character covers the next cells: they print nothing but keep its style.
        for (let k = 1; k < cells; k++) row[x + k] = { type: 'char', value: '', fullWidth: false, styles: cell.styles };
        x += cells;
      }
    });
  }
  return grid.map((row) => styledCharsToString(row.filter((c) => c !== undefined)).trimEnd()).join('\n');
}

/** The opening screen's frame text, as ink's first frame of the same screen will be. */
export function openingFrame(screen: OpeningScreen, theme: Theme): string {
  const { blocks, height } = openingScreen(screen);
  return frameText(blocks, screen.columns, height, theme);
}
