import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { frameLines, windowStart } from '../../src/ui/components/frame.js';
import { fitColumns } from '../../src/ui/components/table.js';
import { DETAIL_PANES } from '../../src/ui/state/ui-state.js';
import { allocate, computeLayout } from '../../src/ui/layout.js';
import { age, clock, gauge } from '../../src/ui/text/format.js';
import { fitLine, lineWidth } from '../../src/ui/text/segments.js';
import { displayWidth, fit, NARROW, sliceCells, truncate, wrapText } from '../../src/ui/text/width.js';
import { NARROW_TEXT } from '../../scripts/bundle-patches.js';

const text = () =>
  fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '漢', '字', '😀', 'é', '-', '…', 'ﾊ'), maxLength: 60 });

describe('display width', () => {
  it('cuts with … by cells, counting wide characters as two', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('漢字漢字', 5)).toBe('漢字…');
    expect(stringWidth(truncate('漢字漢字', 4))).toBeLessThanOrEqual(4);
    expect(truncate('short', 10)).toBe('short');
    expect(fit('ab', 4, 'right')).toBe('  ab');
  });

  it('fits any line to exactly the width asked (property)', () => {
    fc.assert(
      fc.property(fc.array(text(), { maxLength: 5 }), fc.integer({ min: 1, max: 50 }), (parts, width) => {
        const line = fitLine(
          parts.map((t) => ({ text: t })),
          width,
        );
        expect(stringWidth(line.map((s) => s.text).join(''))).toBe(width);
        expect(lineWidth(line)).toBe(width);
      }),
    );
  });

  it('wraps text into lines no wider than the width, keeping every word (property)', () => {
    fc.assert(
      fc.property(text(), fc.integer({ min: 2, max: 30 }), (t, width) => {
        for (const l of wrapText(t, width)) expect(stringWidth(l)).toBeLessThanOrEqual(width);
        expect(wrapText(t, width).join('').replace(/\s/g, '')).toBe(t.replace(/\s/g, ''));
      }),
    );
  });
});

describe('narrow text', () => {
  it('is the set string-width measures by length at build time, every character one cell', () => {
    expect(NARROW.source).toBe(new RegExp(NARROW_TEXT).source);
    for (let cp = 0x20; cp <= 0x2bff; cp++) {
      const ch = String.fromCodePoint(cp);
      if (NARROW.test(ch)) expect(stringWidth(ch), `U+${cp.toString(16)}`).toBe(1);
    }
  });

  it('measures and cuts box drawing as the grapheme walk does', () => {
    const line = '╭─ Team · 4 ─╮ ▕████░▏72% → …';
    expect(displayWidth(line)).toBe(stringWidth(line));
    for (let max = 0; max <= line.length + 1; max++) {
      const cut = sliceCells(line, max);
      expect(cut).toBe(
        [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line)]
          .map((g) => g.segment)
          .slice(0, max)
          .join(''),
      );
    }
  });
});

describe('formats', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('ages, clocks and the gauge', () => {
    expect(age('2026-03-01T11:48:00Z', now)).toBe('12m');
    expect(age('2026-03-01T11:59:30Z', now)).toBe('30s');
    expect(age('2026-02-27T12:00:00Z', now)).toBe('2d');
    expect(age(null, now)).toBe('?');
    expect(clock(42_000)).toBe('0:42');
    expect(clock(300_000)).toBe('5:00');
    expect(clock(3_723_000)).toBe('1:02:03');
    expect(gauge(72, 80)).toEqual({ text: '▕████░▏72%', over: false });
    expect(gauge(72, 70)).toEqual({ text: '▕████░▏72%!', over: true });
  });
});

describe('columns, frames and layout', () => {
  it('drops the least important columns first when narrow', () => {
    const specs = [
      { key: 'a', header: 'A', width: 'flex' as const, min: 10 },
      { key: 'b', header: 'B', width: 10, drop: 1 },
      { key: 'c', header: 'C', width: 10, drop: 2 },
    ];
    expect(fitColumns(specs, 40).map((c) => c.spec.key)).toEqual(['a', 'b', 'c']);
    expect(fitColumns(specs, 25).map((c) => c.spec.key)).toEqual(['a', 'c']);
    expect(fitColumns(specs, 25).find((c) => c.spec.key === 'a')?.width).toBe(14);
  });

  it('draws a frame exactly its size, marking focus in the title', () => {
    const lines = frameLines('Team · 4', true, { width: 30, height: 5 }, [[{ text: 'x'.repeat(50) }]]);
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(lineWidth(l)).toBe(30);
    expect(lines[0]?.map((s) => s.text).join('')).toContain('[> Team · 4]');
    expect(
      frameLines('Team', false, { width: 30, height: 3 }, [])[0]
        ?.map((s) => s.text)
        .join(''),
    ).not.toContain('>');
  });

  it('keeps the cursor row inside the window', () => {
    expect(windowStart(100, 0, 10)).toBe(0);
    expect(windowStart(100, 50, 10)).toBe(46);
    expect(windowStart(100, 99, 10)).toBe(90);
    expect(windowStart(5, 4, 10)).toBe(0);
  });

  it('shares lines: minimums, then wants, then the rest to growers', () => {
    expect(
      allocate(20, [
        { min: 3, want: 5, grow: false },
        { min: 3, want: 30, grow: true },
      ]),
    ).toEqual([5, 15]);
    expect(
      allocate(10, [
        { min: 3, want: 4, grow: false },
        { min: 3, want: 4, grow: false },
        { min: 2, want: 9, grow: true },
      ]),
    ).toEqual([4, 4, 2]);
  });

  it('is wide from 120×30, narrow below, and asks for room under 40×12', () => {
    const wants = { runs: 5, team: 4, preview: 12, tasks: 10, reviews: 3, gates: 2, problems: 1, activity: 1 };
    const noProblems = DETAIL_PANES.filter((p) => p !== 'problems');
    expect(computeLayout(120, 40, wants, noProblems).kind).toBe('wide');
    expect(computeLayout(119, 40, wants, noProblems).kind).toBe('narrow');
    expect(computeLayout(80, 24, wants, noProblems).kind).toBe('narrow');
    expect(computeLayout(30, 10, wants, noProblems).kind).toBe('too-small');
    for (const [w, h] of [
      [80, 24],
      [120, 40],
      [200, 60],
      [40, 12],
    ] as const) {
      const l = computeLayout(w, h, wants, DETAIL_PANES);
      if (l.kind === 'wide')
        for (const col of l.columns) expect(col.reduce((n, p) => n + p.rect.height, 0) + l.runs.height + 2).toBe(h);
      if (l.kind === 'narrow') expect(l.runs.height + l.detail.height + 3).toBe(h);
    }
  });
});
