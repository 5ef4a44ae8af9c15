/**
 * A pane's captured text made safe to draw: colour and attribute SGR become segment styles (drawn
 * again by the screen, never passed through), every other escape sequence (cursor movement, OSC
 * titles and links, DCS) and control character (bells included) is dropped, bidi and zero-width
 * characters are shown escaped. Pure.
 */
import { ESCAPE_SEQUENCES, stripControls } from '../../text/sanitize.js';
import type { Segment, SgrStyle } from './segments.js';

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
const SGR = /^\u001b\[([0-9;:]*)m$/;

/** Reads an extended colour (`38;5;n`, `38;2;r;g;b`) from params at `i`; returns it and how many params it took. */
function extended(params: readonly number[], i: number): { color: string | undefined; used: number } {
  const mode = params[i + 1];
  if (mode === 5) {
    const n = params[i + 2];
    return { color: n !== undefined && n >= 0 && n <= 255 ? `ansi256(${n})` : undefined, used: 3 };
  }
  if (mode === 2) {
    const [r, g, b] = [params[i + 2], params[i + 3], params[i + 4]];
    const ok = [r, g, b].every((v) => v !== undefined && v >= 0 && v <= 255);
    return { color: ok ? `rgb(${r},${g},${b})` : undefined, used: 5 };
  }
  return { color: undefined, used: 1 };
}

/** Applies one SGR parameter list to a style; returns the new style. */
export function applySgr(style: SgrStyle, paramText: string): SgrStyle {
  const params = paramText === '' ? [0] : paramText.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  let s: SgrStyle = { ...style };
  for (let i = 0; i < params.length; i++) {
    const p = params[i] ?? 0;
    if (p === 0) s = {};
    else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 9) s.strike = true;
    else if (p === 22) s.bold = s.dim = undefined;
    else if (p === 23) s.italic = undefined;
    else if (p === 24) s.underline = undefined;
    else if (p === 27) s.inverse = undefined;
    else if (p === 29) s.strike = undefined;
    else if (p >= 30 && p <= 37) s.fg = NAMES[p - 30];
    else if (p >= 90 && p <= 97) s.fg = `${NAMES[p - 90]}Bright`;
    else if (p === 39) s.fg = undefined;
    else if (p >= 40 && p <= 47) s.bg = NAMES[p - 40];
    else if (p >= 100 && p <= 107) s.bg = `${NAMES[p - 100]}Bright`;
    else if (p === 49) s.bg = undefined;
    else if (p === 38 || p === 48) {
      const { color, used } = extended(params, i);
      if (p === 38) s.fg = color;
      else s.bg = color;
      i += used - 1;
    }
  }
  return s;
}

function isPlain(s: SgrStyle): boolean {
  return Object.values(s).every((v) => v === undefined);
}

/**
 * The lines of a capture as styled segments. With `color` false every style is dropped (NO_COLOR:
 * nothing but text). Trailing blank lines (the empty rows under a short screen) are left out.
 */
export function paneTextLines(raw: string, color: boolean): Segment[][] {
  const lines: Segment[][] = [];
  let style: SgrStyle = {};
  for (const rawLine of raw.split('\n')) {
    const line: Segment[] = [];
    const token = new RegExp(ESCAPE_SEQUENCES.source, 'g');
    let at = 0;
    const push = (text: string) => {
      const clean = stripControls(text);
      if (clean) line.push(color && !isPlain(style) ? { text: clean, sgr: style } : { text: clean });
    };
    for (let m = token.exec(rawLine); m; m = token.exec(rawLine)) {
      push(rawLine.slice(at, m.index));
      at = m.index + m[0].length;
      const sgr = SGR.exec(m[0]);
      if (sgr) style = applySgr(style, sgr[1] ?? '');
    }
    push(rawLine.slice(at));
    lines.push(line);
  }
  while (lines.length > 0 && (lines[lines.length - 1] ?? []).every((s) => s.text.trim() === '')) lines.pop();
  return lines;
}
