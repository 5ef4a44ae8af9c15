import { describe, expect, it } from 'vitest';
import { DARK_THEME, blendHex, paletteHex } from '../../scripts/render/palette.js';
import { captureToScreen, screenText, trimScreen } from '../../scripts/render/screen.js';
import type { Cell, Screen } from '../../scripts/render/screen.js';

const ESC = '\x1b';

function cellAt(screen: Screen, row: number, col: number): Cell {
  const cell = screen.cells[row]?.[col];
  if (!cell) throw new Error(`no cell at ${row},${col}`);
  return cell;
}

describe('captureToScreen', () => {
  it('resolves 16-colour, 256-colour and truecolor foregrounds and backgrounds', async () => {
    const capture = `${ESC}[31mR${ESC}[39m ${ESC}[38;5;208mO${ESC}[39m ${ESC}[38;2;10;200;30;48;2;1;2;3mG${ESC}[0m ${ESC}[44mb${ESC}[0m\n`;
    const screen = await captureToScreen(capture, 20, 2);
    expect(cellAt(screen, 0, 0)).toMatchObject({ text: 'R', fg: DARK_THEME.ansi[1], bg: null });
    expect(cellAt(screen, 0, 2)).toMatchObject({ text: 'O', fg: '#ff8700' });
    expect(cellAt(screen, 0, 4)).toMatchObject({ text: 'G', fg: '#0ac81e', bg: '#010203' });
    expect(cellAt(screen, 0, 6)).toMatchObject({ text: 'b', fg: DARK_THEME.foreground, bg: DARK_THEME.ansi[4] });
  });

  it('reads bold, italic, underline and strikethrough, swaps colours for inverse and fades dim text', async () => {
    const capture = `${ESC}[1mB${ESC}[0m${ESC}[3mI${ESC}[0m${ESC}[4mU${ESC}[0m${ESC}[9mS${ESC}[0m${ESC}[7mV${ESC}[0m${ESC}[2mD${ESC}[0m`;
    const screen = await captureToScreen(capture, 10, 1);
    expect(cellAt(screen, 0, 0).bold).toBe(true);
    expect(cellAt(screen, 0, 0).italic).toBe(false);
    expect(cellAt(screen, 0, 1).italic).toBe(true);
    expect(cellAt(screen, 0, 2).underline).toBe(true);
    expect(cellAt(screen, 0, 3).strikethrough).toBe(true);
    expect(cellAt(screen, 0, 4)).toMatchObject({ fg: DARK_THEME.background, bg: DARK_THEME.foreground });
    expect(cellAt(screen, 0, 5).fg).toBe(blendHex(DARK_THEME.foreground, DARK_THEME.background, 0.45));
    expect(cellAt(screen, 0, 5).fg).not.toBe(DARK_THEME.foreground);
  });

  it('carries a style over a line break, as tmux emits only changes', async () => {
    const screen = await captureToScreen(`${ESC}[32mgreen\nstill${ESC}[39m plain`, 20, 2);
    expect(cellAt(screen, 1, 0).fg).toBe(DARK_THEME.ansi[2]);
    expect(cellAt(screen, 1, 6).fg).toBe(DARK_THEME.foreground);
  });

  it('gives a wide character two columns, the second one empty', async () => {
    const screen = await captureToScreen('漢x', 6, 1);
    expect(cellAt(screen, 0, 0)).toMatchObject({ text: '漢', width: 2 });
    expect(screen.cells[0]?.[1]).toBeNull();
    expect(cellAt(screen, 0, 2).text).toBe('x');
  });

  it('keeps box-drawing and block characters as they are', async () => {
    const screen = await captureToScreen('┌─┐▕█░▏★●○✓✗', 20, 1);
    expect(screenText(screen)).toBe('┌─┐▕█░▏★●○✓✗');
  });

  it('fills a screen of exactly cols × rows and drops lines past the last row', async () => {
    const screen = await captureToScreen('one\ntwo\nthree\nfour\n', 8, 3);
    expect(screen.cells).toHaveLength(3);
    expect(screen.cells.every((row) => row.length === 8)).toBe(true);
    expect(screenText(screen)).toBe('one\ntwo\nthree');
  });

  it('trims trailing empty rows but keeps a row with only a background colour', async () => {
    const plain = trimScreen(await captureToScreen('a\nb\n\n\n', 4, 6));
    expect(plain.rows).toBe(2);
    const coloured = trimScreen(await captureToScreen(`a\n\n${ESC}[41m  ${ESC}[0m\n`, 4, 6));
    expect(coloured.rows).toBe(3);
  });
});

describe('palette', () => {
  it('maps the 256-colour cube and grey ramp', () => {
    expect(paletteHex(16)).toBe('#000000');
    expect(paletteHex(196)).toBe('#ff0000');
    expect(paletteHex(231)).toBe('#ffffff');
    expect(paletteHex(232)).toBe('#080808');
    expect(paletteHex(255)).toBe('#eeeeee');
    expect(paletteHex(9)).toBe(DARK_THEME.ansi[9]);
  });
});
