/**
 * Rasterizes the screen SVG with resvg, using the DejaVu font files directly (not whatever the
 * system happens to have) so a screenshot looks the same on every machine that has them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/usr/local/share/fonts/dejavu'];

// The monospace faces draw the grid; DejaVu Sans covers the symbols the mono face lacks.
const FONT_NAMES = [
  'DejaVuSansMono.ttf',
  'DejaVuSansMono-Bold.ttf',
  'DejaVuSansMono-Oblique.ttf',
  'DejaVuSansMono-BoldOblique.ttf',
  'DejaVuSans.ttf',
  'DejaVuSans-Bold.ttf',
];

/** The font files are missing (the Debian package is fonts-dejavu-core). */
export class FontsMissingError extends Error {
  constructor(dirs: readonly string[]) {
    super(`DejaVu Sans Mono not found in ${dirs.join(', ')}: apt-get install fonts-dejavu-core`);
    this.name = 'FontsMissingError';
  }
}

/** The DejaVu font files found on this machine; the regular mono face is required. */
export function findFontFiles(dirs: readonly string[] = FONT_DIRS): string[] {
  for (const dir of dirs) {
    if (!fs.existsSync(path.join(dir, FONT_NAMES[0] as string))) continue;
    return FONT_NAMES.map((name) => path.join(dir, name)).filter((file) => fs.existsSync(file));
  }
  throw new FontsMissingError(dirs);
}

/** A rendered PNG and its size in pixels. */
export interface Png {
  /** The PNG file's bytes. */
  data: Buffer;
  width: number;
  height: number;
  /** The raw RGBA pixels, row by row (for checks without decoding the PNG). */
  pixels: Buffer;
}

/** Renders an SVG to PNG at `scale` (2 for high-density screens). */
export function svgToPng(svg: string, opts: { scale?: number; fontFiles?: string[] } = {}): Png {
  const resvg = new Resvg(svg, {
    font: {
      loadSystemFonts: false,
      fontFiles: opts.fontFiles ?? findFontFiles(),
      defaultFontFamily: 'DejaVu Sans Mono',
      monospaceFamily: 'DejaVu Sans Mono',
      sansSerifFamily: 'DejaVu Sans',
    },
    fitTo: { mode: 'zoom', value: opts.scale ?? 1 },
    textRendering: 2,
    logLevel: 'off',
  });
  const image = resvg.render();
  return { data: image.asPng(), width: image.width, height: image.height, pixels: image.pixels };
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSize(data: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (data.length < 24 || signature.some((b, i) => data[i] !== b)) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (String.fromCharCode(...data.subarray(12, 16)) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
