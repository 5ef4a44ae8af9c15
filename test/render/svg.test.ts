import { describe, expect, it } from 'vitest';
import { DARK_THEME } from '../../scripts/render/palette.js';
import { captureToScreen } from '../../scripts/render/screen.js';
import { FONT_FAMILY, escapeXml, fitTitle, screenToSvg, svgLayout } from '../../scripts/render/svg.js';

const ESC = '\x1b';

/** The `x` list and text of every tspan, in order. */
function tspans(svg: string): { xs: number[]; fill: string; attrs: string; text: string }[] {
  return [...svg.matchAll(/<tspan x="([^"]*)" fill="([^"]*)"([^>]*)>([^<]*)<\/tspan>/g)].map((m) => ({
    xs: (m[1] ?? '').split(' ').map(Number),
    fill: m[2] ?? '',
    attrs: m[3] ?? '',
    text: m[4] ?? '',
  }));
}

describe('screenToSvg', () => {
  it('writes the text runs with their colours and the backgrounds as rects', async () => {
    const capture = `${ESC}[38;2;255;0;0mred${ESC}[0m ${ESC}[1;38;5;46mgreen${ESC}[0m ${ESC}[48;2;0;0;255m  blue bg  ${ESC}[0m`;
    const svg = screenToSvg(await captureToScreen(capture, 40, 2), { title: 'colours' });
    const runs = tspans(svg);
    expect(runs.find((r) => r.text === 'red')?.fill).toBe('#ff0000');
    const green = runs.find((r) => r.text === 'green');
    expect(green?.fill).toBe('#00ff00');
    expect(green?.attrs).toContain('font-weight="bold"');
    expect(runs.find((r) => r.text === 'blue bg')?.fill).toBe(DARK_THEME.foreground);
    const layout = svgLayout(40, 2);
    // "  blue bg  " starts at column 10 and is 11 columns wide.
    expect(svg).toContain(
      `<rect x="${Math.round(10 * layout.cellWidth * 100) / 100}" y="0" width="${Math.round(11 * layout.cellWidth * 100) / 100}" height="17" fill="#0000ff"/>`,
    );
    expect(svg).toContain(`font-family="${FONT_FAMILY}"`);
    expect(svg).toContain(`fill="${DARK_THEME.background}"`);
    expect(svg).toContain('<title>colours</title>');
  });

  it('escapes & < > and quotes in text and title', async () => {
    const svg = screenToSvg(await captureToScreen('a & b <c> "d"', 20, 1), { title: '<t&t>' });
    expect(
      tspans(svg)
        .map((r) => r.text)
        .join(''),
    ).toBe('a &amp; b &lt;c&gt; &quot;d&quot;');
    expect(svg).toContain('<title>&lt;t&amp;t&gt;</title>');
    expect(svg).not.toMatch(/<c>|<t&t>/);
  });

  it('places every character on its own column, past wide characters too', async () => {
    const svg = screenToSvg(await captureToScreen('ab漢c', 10, 1));
    const { cellWidth } = svgLayout(10, 1);
    const runs = tspans(svg);
    const all = runs.flatMap((r) => [...r.text].map((ch, i) => ({ ch, x: r.xs[i] ?? NaN })));
    const at = (ch: string) => all.find((c) => c.ch === ch)?.x ?? NaN;
    expect(at('a')).toBeCloseTo(0, 1);
    expect(at('b')).toBeCloseTo(cellWidth, 1);
    expect(at('漢')).toBeCloseTo(2 * cellWidth, 1);
    expect(at('c')).toBeCloseTo(4 * cellWidth, 1);
  });

  it('gives a character of two UTF-16 units a tspan of its own', async () => {
    const runs = tspans(screenToSvg(await captureToScreen('x🙂y', 10, 1)));
    const emoji = runs.find((r) => r.text === '🙂');
    expect(emoji?.xs).toHaveLength(1);
    expect(runs.map((r) => r.text).join('')).toBe('x🙂y');
  });

  it('draws nothing for empty rows and drops trailing blanks of a run', async () => {
    const svg = screenToSvg(await captureToScreen(`\n${ESC}[4mu ${ESC}[0m   \n`, 10, 3));
    expect(svg.match(/<text y=/g)).toHaveLength(1);
    const [run] = tspans(svg);
    expect(run?.text).toBe('u ');
    expect(run?.attrs).toContain('text-decoration="underline"');
  });

  it('sizes the image from the grid: one row per line, one advance per column', () => {
    const small = svgLayout(80, 24);
    const big = svgLayout(140, 42);
    expect(big.height - small.height).toBe(18 * 17);
    expect(big.width - small.width).toBeGreaterThanOrEqual(Math.floor(60 * small.cellWidth));
    expect(small.cellWidth / small.fontSize).toBeCloseTo(1233 / 2048, 5);
  });
});

describe('escapeXml and fitTitle', () => {
  it('drops characters XML forbids', () => {
    expect(escapeXml('a\u0001b\uffffc\ud800d')).toBe('abcd');
  });

  it('cuts a long title with an ellipsis and keeps a short one', () => {
    expect(fitTitle('tower', 800)).toBe('tower');
    const cut = fitTitle('x'.repeat(500), 800);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThan(100);
  });
});
