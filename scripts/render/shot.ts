/** The renderer in one call (a `capture-pane -e` dump → SVG and PNG) and saving it to files. */
import fs from 'node:fs';
import path from 'node:path';
import { svgToPng } from './png.js';
import type { Png } from './png.js';
import { captureToScreen, trimScreen } from './screen.js';
import type { Screen } from './screen.js';
import { screenToSvg } from './svg.js';
import type { SvgOptions } from './svg.js';

/** Options of renderCapture. */
export interface RenderOptions extends SvgOptions {
  /** Drop trailing empty rows (a command's output is shorter than its pane). */
  trim?: boolean;
  /** PNG pixel density (1 = one SVG unit per pixel). */
  scale?: number;
}

/** A rendered screenshot. */
export interface Rendered {
  screen: Screen;
  svg: string;
  png: Png;
}

/** Renders a capture of a `cols`×`rows` pane. */
export async function renderCapture(
  capture: string,
  size: { cols: number; rows: number },
  opts: RenderOptions = {},
): Promise<Rendered> {
  let screen = await captureToScreen(capture, size.cols, size.rows, opts.theme);
  if (opts.trim) screen = trimScreen(screen);
  const svg = screenToSvg(screen, opts);
  const png = svgToPng(svg, opts.scale !== undefined ? { scale: opts.scale } : {});
  return { screen, svg, png };
}

/** Throws unless `name` is a plain file name (it becomes `<name>.png` in the output folder). */
export function checkShotName(name: string): void {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name))
    throw new Error(`bad screenshot name ${JSON.stringify(name)}: use letters, digits, . _ -`);
}

/** What saveShot wrote. */
export interface SavedShot extends Rendered {
  svgPath: string;
  pngPath: string;
}

/** Renders a capture and writes `<outDir>/<name>.svg` and `<outDir>/<name>.png`. */
export async function saveShot(
  outDir: string,
  name: string,
  capture: string,
  size: { cols: number; rows: number },
  opts: RenderOptions = {},
): Promise<SavedShot> {
  checkShotName(name);
  const rendered = await renderCapture(capture, size, opts);
  fs.mkdirSync(outDir, { recursive: true });
  const svgPath = path.join(outDir, `${name}.svg`);
  const pngPath = path.join(outDir, `${name}.png`);
  fs.writeFileSync(svgPath, rendered.svg);
  fs.writeFileSync(pngPath, rendered.png.data);
  return { ...rendered, svgPath, pngPath };
}
