import { describe, expect, it } from 'vitest';
import { DARK_THEME } from '../../scripts/render/palette.js';
import { FontsMissingError, findFontFiles, pngSize, svgToPng } from '../../scripts/render/png.js';
import type { Png } from '../../scripts/render/png.js';
import { renderCapture } from '../../scripts/render/shot.js';
import { svgLayout } from '../../scripts/render/svg.js';

const ESC = '\x1b';

function pixel(png: Png, x: number, y: number): string {
  const i = (Math.floor(y) * png.width + Math.floor(x)) * 4;
  return [...png.pixels.subarray(i, i + 3)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The distinct colours in a cell's box. */
function coloursInCell(png: Png, col: number, row: number, cols: number, rows: number): Set<string> {
  const l = svgLayout(cols, rows);
  const seen = new Set<string>();
  for (let y = l.originY + row * l.lineHeight; y < l.originY + (row + 1) * l.lineHeight; y++) {
    for (let x = l.originX + col * l.cellWidth; x < l.originX + (col + 1) * l.cellWidth; x++)
      seen.add(pixel(png, x, y));
  }
  return seen;
}

describe('svgToPng', () => {
  it('writes a PNG whose IHDR has the layout size, with more than one colour in it', async () => {
    const { png } = await renderCapture(`${ESC}[31mhello${ESC}[0m ${ESC}[42m world ${ESC}[0m`, { cols: 30, rows: 4 });
    const layout = svgLayout(30, 4);
    expect(pngSize(png.data)).toEqual({ width: layout.width, height: layout.height });
    expect(png.width).toBe(layout.width);
    const colours = new Set<string>();
    for (let i = 0; i < png.pixels.length; i += 4) colours.add(png.pixels.subarray(i, i + 3).toString('hex'));
    expect(colours.size).toBeGreaterThan(10);
  });

  it('draws a full block in its colour across the whole cell, so the font is really loaded', async () => {
    const { png } = await renderCapture(` ${ESC}[38;2;255;0;0m█${ESC}[0m\n ${ESC}[38;2;255;0;0m█${ESC}[0m`, {
      cols: 3,
      rows: 2,
    });
    const l = svgLayout(3, 2);
    const x = l.originX + 1.5 * l.cellWidth;
    expect(pixel(png, x, l.originY + 0.5 * l.lineHeight)).toBe('ff0000');
    // The block reaches the row's edges, so blocks on consecutive rows join without a gap.
    expect(pixel(png, x, l.originY + l.lineHeight - 0.5)).toBe('ff0000');
    expect(pixel(png, x, l.originY + l.lineHeight + 0.5)).toBe('ff0000');
    const bg = DARK_THEME.background.slice(1);
    expect(pixel(png, l.originX + 0.5 * l.cellWidth, l.originY + 0.5 * l.lineHeight)).toBe(bg);
  });

  it('renders box-drawing, block and symbol glyphs (no empty cells)', async () => {
    const glyphs = '│─┌▕░▏★●○✓✗';
    const { png } = await renderCapture(glyphs, { cols: glyphs.length, rows: 1 });
    [...glyphs].forEach((ch, col) => {
      expect(coloursInCell(png, col, 0, glyphs.length, 1).size, `glyph ${ch}`).toBeGreaterThan(1);
    });
  });

  it('scales the image', async () => {
    const { png } = await renderCapture('x', { cols: 4, rows: 1 }, { scale: 2 });
    const l = svgLayout(4, 1);
    expect(pngSize(png.data)).toEqual({ width: 2 * l.width, height: 2 * l.height });
  });

  it('reads no size from bytes that are not a PNG', () => {
    expect(pngSize(Buffer.from('GIF89a not a png at all, really'))).toBeNull();
    expect(pngSize(new Uint8Array(4))).toBeNull();
  });

  it('says which package to install when the fonts are missing', () => {
    expect(() => findFontFiles(['/nonexistent/fonts'])).toThrow(FontsMissingError);
    expect(() => findFontFiles(['/nonexistent/fonts'])).toThrow(/fonts-dejavu-core/);
    expect(findFontFiles().some((f) => f.endsWith('DejaVuSansMono.ttf'))).toBe(true);
  });

  it('renders an SVG with no text at its own size', () => {
    const png = svgToPng(
      '<svg xmlns="http://www.w3.org/2000/svg" width="7" height="5"><rect width="7" height="5" fill="#123456"/></svg>',
    );
    expect(pngSize(png.data)).toEqual({ width: 7, height: 5 });
    expect(pixel(png, 3, 2)).toBe('123456');
  });
});
