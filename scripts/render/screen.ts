/**
 * Turns a `capture-pane -e` dump into a grid of styled cells by replaying it through a real
 * terminal emulator (@xterm/headless), so every SGR form tmux emits — 16, 256 and truecolor,
 * bold, dim, inverse, underline — is interpreted the way a terminal would.
 */
import xtermHeadless from '@xterm/headless';
import type { IBufferCell } from '@xterm/headless';
import { DARK_THEME, blendHex, packedHex, paletteHex } from './palette.js';
import type { Theme } from './palette.js';

const { Terminal } = xtermHeadless;

/** One character cell with its colours resolved to `#rrggbb`. */
export interface Cell {
  /** The grapheme shown (a space for an empty cell). */
  text: string;
  /** Columns it covers: 2 for wide characters, whose second column is `null` in the row. */
  width: 1 | 2;
  fg: string;
  /** null: the default background (drawn by the window, not per cell). */
  bg: string | null;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strikethrough: boolean;
}

/** A terminal screen: `rows` rows of `cols` entries (null = covered by the wide cell before it). */
export interface Screen {
  cols: number;
  rows: number;
  cells: (Cell | null)[][];
}

/** How long a capture may be (a runaway capture should fail, not hang the emulator). */
const MAX_CAPTURE_CHARS = 4_000_000;

function colourOf(cell: IBufferCell, which: 'fg' | 'bg', theme: Theme): string | null {
  const rgb = which === 'fg' ? cell.isFgRGB() : cell.isBgRGB();
  const palette = which === 'fg' ? cell.isFgPalette() : cell.isBgPalette();
  const value = which === 'fg' ? cell.getFgColor() : cell.getBgColor();
  if (rgb) return packedHex(value);
  if (palette) return paletteHex(value, theme);
  return null;
}

/** Resolves one emulator cell: inverse swaps the colours, dim fades the text into its background. */
function toCell(cell: IBufferCell, theme: Theme): Cell {
  let fg = colourOf(cell, 'fg', theme) ?? theme.foreground;
  let bg = colourOf(cell, 'bg', theme);
  if (cell.isInverse()) {
    const swapped = bg ?? theme.background;
    bg = fg;
    fg = swapped;
  }
  if (cell.isDim()) fg = blendHex(fg, bg ?? theme.background, 0.45);
  if (cell.isInvisible()) fg = bg ?? theme.background;
  const text = cell.getChars() || ' ';
  return {
    text,
    width: cell.getWidth() === 2 ? 2 : 1,
    fg,
    bg,
    bold: cell.isBold() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
  };
}

/**
 * Replays a capture (lines separated by `\n`, as `capture-pane -e -p` prints them) into a
 * `cols`×`rows` terminal and reads the screen back. Lines past `rows` are dropped, not scrolled.
 */
export async function captureToScreen(
  capture: string,
  cols: number,
  rows: number,
  theme: Theme = DARK_THEME,
): Promise<Screen> {
  if (capture.length > MAX_CAPTURE_CHARS) throw new Error(`capture too large (${capture.length} chars)`);
  const lines = capture
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
    .slice(0, rows);
  const term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  try {
    // No reset between lines: tmux carries the style over a line break and only emits changes.
    const data = lines.join('\r\n');
    await new Promise<void>((resolve) => term.write(data, resolve));
    const buffer = term.buffer.active;
    const cells: (Cell | null)[][] = [];
    const scratch = buffer.getNullCell();
    for (let y = 0; y < rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      const row: (Cell | null)[] = [];
      for (let x = 0; x < cols; x++) {
        const cell = line?.getCell(x, scratch);
        if (!cell) row.push(blankCell(theme));
        else if (cell.getWidth() === 0) row.push(null);
        else row.push(toCell(cell, theme));
      }
      cells.push(row);
    }
    return { cols, rows, cells };
  } finally {
    term.dispose();
  }
}

function blankCell(theme: Theme): Cell {
  return {
    text: ' ',
    width: 1,
    fg: theme.foreground,
    bg: null,
    bold: false,
    italic: false,
    underline: false,
    strikethrough: false,
  };
}

/** The screen as plain text, one line per row, trailing spaces trimmed (for logs and checks). */
export function screenText(screen: Screen): string {
  return screen.cells
    .map((row) =>
      row
        .map((c) => (c ? c.text : ''))
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/** The screen without its trailing empty rows (at least `minRows` kept): for one-shot commands. */
export function trimScreen(screen: Screen, minRows = 1): Screen {
  let rows = screen.rows;
  const empty = (row: readonly (Cell | null)[]): boolean => row.every((c) => !c || (c.text === ' ' && c.bg === null));
  while (rows > minRows && empty(screen.cells[rows - 1] ?? [])) rows--;
  return { cols: screen.cols, rows, cells: screen.cells.slice(0, rows) };
}
