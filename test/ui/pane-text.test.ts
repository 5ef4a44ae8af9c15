import { describe, expect, it } from 'vitest';
import { paneTextLines } from '../../src/ui/text/pane-text.js';

const HOSTILE = [
  '\u001b]0;owned title\u0007\u001b]2;another\u001b\\plain \u001b[31mred\u001b[0m end\u0007',
  '\u001b[2J\u001b[H\u001b[10;10Hmoved \u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\ \u001bPq#0;1;2\u001b\\dcs gone',
  'bidi \u202Eevil\u202C zero\u200Bwidth \u0008back\u0000nul',
  '\u001b[1;38;5;208mbold orange\u001b[22;39m \u001b[48;2;1;2;3mtruecolour bg\u001b[49m',
  '',
  '',
].join('\n');

describe('paneTextLines', () => {
  it('keeps colour and attributes as styles and drops every other sequence and control', () => {
    const lines = paneTextLines(HOSTILE, true);
    const text = lines.map((l) => l.map((s) => s.text).join(''));
    expect(text).toEqual([
      'plain red end',
      'moved link dcs gone',
      'bidi <U+202E>evil<U+202C> zero<U+200B>width backnul',
      'bold orange truecolour bg',
    ]);
    expect(lines[0]?.find((s) => s.text === 'red')?.sgr).toEqual({ fg: 'red' });
    expect(lines[3]?.[0]).toEqual({ text: 'bold orange', sgr: { bold: true, fg: 'ansi256(208)' } });
    expect(lines[3]?.find((s) => s.text === 'truecolour bg')?.sgr).toEqual({ bg: 'rgb(1,2,3)' });
    // No escape, bell or control character survives in any segment.
    for (const s of lines.flat()) expect(s.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('gives nothing but text under NO_COLOR', () => {
    const lines = paneTextLines(HOSTILE, false);
    expect(lines.flat().some((s) => s.sgr !== undefined)).toBe(false);
  });

  it('carries a colour across lines as the terminal would', () => {
    const lines = paneTextLines('\u001b[32mgreen\nstill green\u001b[0m\nplain', true);
    expect(lines.map((l) => l.map((s) => s.sgr ?? null))).toEqual([[{ fg: 'green' }], [{ fg: 'green' }], [null]]);
  });
});
