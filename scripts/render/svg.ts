/**
 * Draws a terminal screen as SVG: a small window frame, one `<rect>` per run of background
 * colour and one `<text>` per row whose `<tspan>` runs carry the colours and weights. Every
 * character is placed on its own column (an `x` per character), so a glyph that comes from a
 * fallback font or a wide character can never shift the rest of the row off the grid.
 */
import { DARK_THEME } from './palette.js';
import type { Theme } from './palette.js';
import type { Cell, Screen } from './screen.js';

/** The font the SVG asks for; the PNG renderer loads these files. */
export const FONT_FAMILY = 'DejaVu Sans Mono, monospace';

// DejaVu Sans Mono's metrics in font units: the advance of every glyph, the ascender and the
// descender. A row as tall as ascender + descender lets box-drawing and block glyphs tile.
const UNITS_PER_EM = 2048;
const ADVANCE = 1233;
const ASCENT = 1901;
const DESCENT = 483;

/** Options of screenToSvg. */
export interface SvgOptions {
  /** Shown in the window's title bar. */
  title?: string;
  theme?: Theme;
  /** Height of one terminal row in px (the font size follows from it). */
  lineHeight?: number;
}

/** The pixel geometry of a rendered screen. */
export interface SvgLayout {
  width: number;
  height: number;
  fontSize: number;
  cellWidth: number;
  lineHeight: number;
  /** Top-left of the character grid inside the image. */
  originX: number;
  originY: number;
}

const PADDING = 14;
const TITLE_BAR = 30;
const CORNER = 9;

/** The geometry of a `cols`×`rows` screen at a given row height. */
export function svgLayout(cols: number, rows: number, lineHeight = 17): SvgLayout {
  const fontSize = (lineHeight * UNITS_PER_EM) / (ASCENT + DESCENT);
  const cellWidth = (fontSize * ADVANCE) / UNITS_PER_EM;
  return {
    width: Math.ceil(2 * PADDING + cols * cellWidth),
    height: Math.ceil(TITLE_BAR + 2 * PADDING + rows * lineHeight),
    fontSize,
    cellWidth,
    lineHeight,
    originX: PADDING,
    originY: TITLE_BAR + PADDING,
  };
}

/** Escapes text for XML character data and attribute values; drops code points XML forbids. */
export function escapeXml(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const num = (n: number): string => String(Math.round(n * 100) / 100);

/** A cell that shows nothing but its background, so it may join a text run of any style. */
function isBlank(cell: Cell): boolean {
  return cell.text === ' ' && !cell.underline && !cell.strikethrough;
}

function styleKey(cell: Cell): string {
  return `${cell.fg}|${cell.bold}|${cell.italic}|${cell.underline}|${cell.strikethrough}`;
}

interface Run {
  style: Cell;
  chars: { text: string; col: number; blank: boolean }[];
}

/** Splits a row into runs of one text style; blanks join the run they sit in, runs lose trailing blanks. */
function textRuns(row: readonly (Cell | null)[]): Run[] {
  const runs: Run[] = [];
  let current: Run | null = null;
  const close = (): void => {
    if (!current) return;
    while (current.chars.length > 0 && current.chars[current.chars.length - 1]?.blank) current.chars.pop();
    if (current.chars.length > 0) runs.push(current);
    current = null;
  };
  row.forEach((cell, col) => {
    if (!cell) return;
    if (!current) {
      if (isBlank(cell)) return;
      current = { style: cell, chars: [] };
    } else if (!isBlank(cell) && styleKey(cell) !== styleKey(current.style)) {
      close();
      current = { style: cell, chars: [] };
    }
    // A grapheme of more than one UTF-16 unit gets a run of its own, so `x` stays one per character.
    if (cell.text.length > 1) {
      close();
      runs.push({ style: cell, chars: [{ text: cell.text, col, blank: false }] });
      return;
    }
    (current as Run).chars.push({ text: cell.text, col, blank: isBlank(cell) });
  });
  close();
  return runs;
}

function tspan(run: Run, layout: SvgLayout): string {
  const { style } = run;
  const xs = run.chars.map((c) => num(c.col * layout.cellWidth)).join(' ');
  const attrs = [`x="${xs}"`, `fill="${style.fg}"`];
  if (style.bold) attrs.push('font-weight="bold"');
  if (style.italic) attrs.push('font-style="italic"');
  const decorations = [style.underline ? 'underline' : '', style.strikethrough ? 'line-through' : ''].filter(Boolean);
  if (decorations.length > 0) attrs.push(`text-decoration="${decorations.join(' ')}"`);
  return `<tspan ${attrs.join(' ')}>${escapeXml(run.chars.map((c) => c.text).join(''))}</tspan>`;
}

/** Background rects of one row: consecutive cells of one non-default colour merge into one rect. */
function backgroundRects(row: readonly (Cell | null)[], y: number, layout: SvgLayout): string[] {
  const rects: string[] = [];
  let start = -1;
  let colour: string | null = null;
  const flush = (end: number): void => {
    if (colour !== null && start >= 0) {
      rects.push(
        `<rect x="${num(start * layout.cellWidth)}" y="${num(y)}" width="${num((end - start) * layout.cellWidth)}" height="${num(layout.lineHeight)}" fill="${colour}"/>`,
      );
    }
  };
  for (let col = 0; col <= row.length; col++) {
    const cell = row[col];
    if (cell === null) continue; // the second column of a wide character shares its cell's colour
    const bg = cell?.bg ?? null;
    if (bg !== colour) {
      flush(col);
      colour = bg;
      start = col;
    }
  }
  return rects;
}

const TITLE_SIZE = 13;
// The title stays clear of the three dots on the left and is centred, so it may use the middle.
const TITLE_MARGIN = PADDING + 66;

/** The title cut with an ellipsis to fit between the dots and the right edge. */
export function fitTitle(title: string, width: number): string {
  const room = Math.floor((width - 2 * TITLE_MARGIN) / ((TITLE_SIZE * ADVANCE) / UNITS_PER_EM));
  const chars = [...title];
  if (chars.length <= room) return title;
  return room <= 1 ? '' : `${chars.slice(0, room - 1).join('')}…`;
}

function windowFrame(layout: SvgLayout, theme: Theme, fullTitle: string): string[] {
  const { width, height } = layout;
  const title = fitTitle(fullTitle, width);
  const dots = ['#ff5f57', '#febc2e', '#28c840'].map(
    (fill, i) => `<circle cx="${PADDING + 6 + i * 20}" cy="${TITLE_BAR / 2}" r="6" fill="${fill}"/>`,
  );
  return [
    `<rect width="${width}" height="${height}" rx="${CORNER}" fill="${theme.background}"/>`,
    `<path d="M0 ${TITLE_BAR}V${CORNER}a${CORNER} ${CORNER} 0 0 1 ${CORNER} -${CORNER}H${width - CORNER}a${CORNER} ${CORNER} 0 0 1 ${CORNER} ${CORNER}V${TITLE_BAR}Z" fill="${theme.frame}"/>`,
    ...dots,
    title
      ? `<text x="${num(width / 2)}" y="${TITLE_BAR / 2 + 4.5}" text-anchor="middle" font-family="${FONT_FAMILY}" font-size="${TITLE_SIZE}" fill="${theme.title}">${escapeXml(title)}</text>`
      : '',
  ].filter(Boolean);
}

/** The SVG document of a screen. */
export function screenToSvg(screen: Screen, opts: SvgOptions = {}): string {
  const theme = opts.theme ?? DARK_THEME;
  const layout = svgLayout(screen.cols, screen.rows, opts.lineHeight);
  const title = opts.title ?? '';
  const baseline = (layout.fontSize * ASCENT) / UNITS_PER_EM;
  const body: string[] = [];
  screen.cells.forEach((row, r) => {
    const top = r * layout.lineHeight;
    body.push(...backgroundRects(row, top, layout));
    const runs = textRuns(row);
    if (runs.length > 0)
      body.push(`<text y="${num(top + baseline)}">${runs.map((run) => tspan(run, layout)).join('')}</text>`);
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">`,
    title ? `<title>${escapeXml(title)}</title>` : '',
    ...windowFrame(layout, theme, title),
    `<g transform="translate(${layout.originX} ${layout.originY})" font-family="${FONT_FAMILY}" font-size="${num(layout.fontSize)}" xml:space="preserve" style="white-space:pre" shape-rendering="crispEdges">`,
    ...body,
    '</g>',
    '</svg>',
  ]
    .filter((line) => line !== '')
    .join('\n')
    .concat('\n');
}
