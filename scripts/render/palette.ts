/**
 * The colours of the rendered terminal: a dark theme for the 16 ANSI colours, the standard
 * xterm 256-colour cube and grey ramp, and the blending rules for dim and inverse text.
 */

/** A terminal colour theme: hex `#rrggbb` strings. */
export interface Theme {
  /** What cells with the default background show (also the window's body). */
  background: string;
  /** Text with the default foreground. */
  foreground: string;
  /** ANSI colours 0–15: black, red, green, yellow, blue, magenta, cyan, white, then the bright ones. */
  ansi: readonly string[];
  /** The window frame around the screen. */
  frame: string;
  /** The title text on the frame. */
  title: string;
}

/** The theme the screenshots use. */
export const DARK_THEME: Theme = {
  background: '#15171c',
  foreground: '#d5d8de',
  ansi: [
    '#23262e',
    '#ea6b73',
    '#93c572',
    '#e6c06f',
    '#5fa8ee',
    '#c27bd9',
    '#4fb8c4',
    '#c3c8d1',
    '#5f6673',
    '#ff8a92',
    '#b2e28e',
    '#ffd98b',
    '#86c1ff',
    '#dc9cf0',
    '#7fd8e3',
    '#f4f6fa',
  ],
  frame: '#2a2e37',
  title: '#9aa1ad',
};

const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

function hex2(n: number): string {
  return Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');
}

/** `#rrggbb` from channels. */
export function rgbHex(r: number, g: number, b: number): string {
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}

/** `#rrggbb` from a packed 0xRRGGBB number (xterm's truecolor cell value). */
export function packedHex(value: number): string {
  return rgbHex((value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff);
}

/** The colour of a 256-colour palette index under a theme. */
export function paletteHex(index: number, theme: Theme = DARK_THEME): string {
  if (index < 16) return theme.ansi[index] ?? theme.foreground;
  if (index < 232) {
    const n = index - 16;
    const level = (i: number): number => CUBE_LEVELS[i] ?? 0;
    return rgbHex(level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6));
  }
  const grey = 8 + (Math.min(index, 255) - 232) * 10;
  return rgbHex(grey, grey, grey);
}

/** `a` moved towards `b` by `t` (0 = a, 1 = b); how dim text fades into its background. */
export function blendHex(a: string, b: string, t: number): string {
  const ch = (s: string, i: number): number => parseInt(s.slice(1 + 2 * i, 3 + 2 * i), 16);
  return rgbHex(
    ch(a, 0) + (ch(b, 0) - ch(a, 0)) * t,
    ch(a, 1) + (ch(b, 1) - ch(a, 1)) * t,
    ch(a, 2) + (ch(b, 2) - ch(a, 2)) * t,
  );
}
