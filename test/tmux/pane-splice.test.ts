/**
 * A streamed pane's capture made from its screen and the history already taken: what the pane
 * printed bounds how far it scrolled, and a window's lines are spliced on only where exactly one
 * place fits.
 */
import { describe, expect, it } from 'vitest';
import type { ControlAnswer } from '../../src/tmux/control-capture.js';
import { spliced } from '../../src/tmux/pane-splice.js';
import { ScrollBound } from '../../src/tmux/scroll-bound.js';

/** What tmux answers: `history` lines from the end of `scrollback` and the screen. */
function answer(
  scrollback: string[],
  screen: string[],
  asked: number,
  more: Partial<ControlAnswer> = {},
): ControlAnswer {
  const history = Math.min(asked, scrollback.length);
  return {
    lines: [...scrollback.slice(scrollback.length - history), ...screen],
    history,
    historySize: scrollback.length,
    historyLimit: 2000,
    height: screen.length,
    width: 80,
    alternate: false,
    command: 'sh',
    pid: 1,
    ...more,
  };
}

const numbered = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `line ${from + i}`);

describe('how far a pane can have scrolled, from what it printed', () => {
  it('counts line feeds and wraps of plain and coloured text, a sequence split across notifications', () => {
    const b = new ScrollBound();
    b.take('line 1\\015\\012\\033[3');
    b.take('1mred\\033[0m\\011x\\015\\012');
    // Two feeds, one tab, 14 characters counted two cells each on a 80-wide pane: 2 + 1 + 1 + ceil(28 / 79).
    expect(b.bound(80)).toBe(5);
    const counted = b.counted();
    expect(counted(80)).toBe(5);
    expect(b.bound(80)).toBe(1);
  });

  it('is unknown after a cursor move, a clear, another escape or control character, until counted again', () => {
    for (const data of ['\\033[H', '\\033[2J', '\\033[?25l', '\\033M', '\\033]0;title\\007', '\\016', 'a\\9b']) {
      const b = new ScrollBound();
      b.take(`ok\\015\\012${data}`);
      expect(b.bound(80), data).toBeNull();
      expect(b.counted()(80), data).toBeNull();
      b.take('next\\015\\012');
      expect(b.bound(80), data).not.toBeNull();
    }
  });

  it('follows a sequence begun before a capture: its end after it is read as the sequence it is', () => {
    const b = new ScrollBound();
    b.take('text\\033[2');
    expect(b.counted()(80)).not.toBeNull();
    b.take('J');
    expect(b.bound(80)).toBeNull();
    // A backslash the pane printed is one character, written by tmux as \134.
    const c = new ScrollBound();
    c.take('a\\134b');
    expect(c.bound(80)).toBe(1 + Math.ceil(6 / 79));
  });
});

describe('a window spliced onto the last whole capture', () => {
  const screen = ['$ prompt', ''];

  it('splices the lines scrolled in, told by the history’s size, onto the history already taken', () => {
    const last = { answer: answer(numbered(0, 300), screen, 200), depth: 200 };
    const now = numbered(0, 307);
    const w = answer(now, screen, 16);
    const got = spliced(last, w, 16, 200, null);
    expect(got).toEqual({ lines: [...now.slice(-200), ...screen], history: 200 });
  });

  it('at the history’s limit, finds the one place the window meets the last history, within the bound', () => {
    const limit = { historyLimit: 300 };
    const last = { answer: answer(numbered(0, 300), screen, 200, limit), depth: 200 };
    // tmux trimmed a tenth and 12 lines came in: the size alone says nothing.
    const now = numbered(42, 312);
    const w = answer(now, screen, 20, limit);
    expect(spliced(last, w, 20, 200, 15)).toEqual({ lines: [...now.slice(-200), ...screen], history: 200 });
    // More lines than the bound allows: not told.
    expect(spliced(last, w, 20, 200, 5)).toBeNull();
    expect(spliced(last, w, 20, 200, null)).toBeNull();
  });

  it('gives none where two places fit, the size changed, the alternate screen shows, or the window is short', () => {
    const limit = { historyLimit: 300 };
    const same = Array.from({ length: 300 }, () => 'again');
    const last = { answer: answer(same, screen, 200, limit), depth: 200 };
    expect(
      spliced(last, answer([...same.slice(3), 'again', 'again', 'again'], screen, 16, limit), 16, 200, 8),
    ).toBeNull();
    const plain = { answer: answer(numbered(0, 100), screen, 200), depth: 200 };
    const next = numbered(0, 104);
    expect(spliced(plain, answer(next, screen, 16, { width: 81 }), 16, 200, null)).toBeNull();
    expect(spliced(plain, answer(next, ['a', 'b', 'c'], 16), 16, 200, null)).toBeNull();
    expect(spliced(plain, answer(next, screen, 16, { alternate: true }), 16, 200, null)).toBeNull();
    // 12 lines scrolled in, a window of 16: three lines meet the last history, too few to tell by.
    expect(spliced(plain, answer(numbered(0, 112), screen, 16), 16, 200, null)).toBeNull();
    expect(spliced(plain, answer(numbered(0, 111), screen, 16), 16, 200, null)).not.toBeNull();
    // 30 lines scrolled in, a window of 16: the lines above it are not known.
    expect(spliced(plain, answer(numbered(0, 130), screen, 16), 16, 200, null)).toBeNull();
    // The history changed under the window (cleared and printed again): the lines do not meet.
    const other = [...numbered(0, 90), ...numbered(500, 514)];
    expect(spliced(plain, answer(other, screen, 16), 16, 200, null)).toBeNull();
  });

  it('takes a window that holds the whole scrollback as it is', () => {
    const last = { answer: answer(numbered(0, 5), screen, 200), depth: 200 };
    const w = answer(numbered(0, 9), screen, 16);
    expect(spliced(last, w, 16, 200, null)).toEqual({ lines: w.lines, history: 9 });
  });
});
