/**
 * The screen's own frames: a change redraws only the parts drawn from what changed, each line is
 * styled once, and a dialog cuts the rows beneath it at exact cells, wide characters included.
 */
import chalk from 'chalk';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { defaultBindings } from '../../src/keys/keymap.js';
import { cutLine, FrameComposer } from '../../src/ui/frame-compose.js';
import { computeLayout } from '../../src/ui/layout.js';
import { wantsOf } from '../../src/ui/metrics.js';
import type { ScreenInput } from '../../src/ui/screen-blocks.js';
import { screenBlocks } from '../../src/ui/screen-blocks.js';
import { ScreenMemo } from '../../src/ui/screen-memo.js';
import { initialUiState } from '../../src/ui/state/ui-state.js';
import { deriveView } from '../../src/ui/state/view.js';
import { createTheme } from '../../src/ui/theme.js';
import type { Theme } from '../../src/ui/theme.js';
import { NOW, fixtureSnapshot, task } from './fixtures.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

const NO_ACTIVITY: ScreenInput['activity'] = [];

function input(snapshot: Snapshot, patch: Partial<ScreenInput> = {}): ScreenInput {
  const ui = initialUiState();
  const view = deriveView(snapshot, [], ui);
  return {
    layout: computeLayout(120, 40, wantsOf(view), view.focusable),
    snapshot,
    loading: false,
    activity: NO_ACTIVITY,
    ui,
    view,
    dialog: null,
    hints: [],
    bindings: defaultBindings(),
    readonly: false,
    contextThreshold: 70,
    gatesNow: NOW,
    teamNow: NOW,
    color: true,
    help: null,
    dialogBox: null,
    ...patch,
  };
}

/** A theme that counts the segments it is asked to style. */
function countingTheme(): { theme: Theme; calls: () => number } {
  const base = createTheme(true);
  let n = 0;
  return {
    theme: {
      ...base,
      style: (tone) => {
        n++;
        return base.style(tone);
      },
    },
    calls: () => n,
  };
}

const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('the screen as blocks', () => {
  it('keeps the lines of every part whose inputs did not change, and draws the changed run again', () => {
    const memo = new ScreenMemo();
    const first = fixtureSnapshot();
    const a = screenBlocks(input(first), memo);
    // The selected run is untouched; a run further down gets a new task.
    const selected = deriveView(first, [], initialUiState()).run!;
    const runs = first.runs.map((r) =>
      r.id !== selected.id && r.tasks.length > 0 ? { ...r, tasks: [...r.tasks, task('new')] } : r,
    );
    expect(runs.some((r, i) => r !== first.runs[i])).toBe(true);
    const b = screenBlocks(input({ ...first, runs }), memo);
    expect(b.blocks).toHaveLength(a.blocks.length);
    // Header and runs list are drawn from the snapshot; every detail pane of the selected run is kept.
    const detail = (blocks: typeof a.blocks) => blocks.slice(2, -1).map((x) => x.lines);
    expect(detail(b.blocks)).toHaveLength(detail(a.blocks).length);
    detail(b.blocks).forEach((lines, i) => expect(lines).toBe(detail(a.blocks)[i]));

    // A change to the selected run draws its panes again.
    const changed = first.runs.map((r) => (r.id === selected.id ? { ...r, tasks: [...r.tasks, task('new')] } : r));
    const c = screenBlocks(input({ ...first, runs: changed }), memo);
    expect(detail(c.blocks).some((lines, i) => lines !== detail(b.blocks)[i])).toBe(true);
  });
});

describe('the frame composer', () => {
  it('styles each line once: composing the same blocks again styles nothing', () => {
    chalk.level = 3;
    const { theme, calls } = countingTheme();
    const composer = new FrameComposer(theme);
    const { blocks, height } = screenBlocks(input(fixtureSnapshot()));
    const a = composer.compose(blocks, 120, height);
    const styled = calls();
    expect(styled).toBeGreaterThan(100);
    const b = composer.compose(blocks, 120, height);
    expect(calls()).toBe(styled);
    expect(b).toEqual(a);
    expect(a).toHaveLength(40);
    for (const row of a) expect(stringWidth(plain(row))).toBeLessThanOrEqual(120);
  });

  it('puts a dialog over the rows at its cells, the rows beside it kept to the cell', () => {
    chalk.level = 0;
    const composer = new FrameComposer(createTheme(false));
    const base = { x: 0, y: 0, width: 20, lines: [[{ text: 'ab漢字cdefghijklmnop' }], [{ text: 'x'.repeat(20) }]] };
    // Over cells 3..9 of both rows: the wide 漢 (cells 2-3) and 字 (4-5) are cut.
    const over = { x: 3, y: 0, width: 6, lines: [[{ text: '[DLG]' }], [{ text: '123456' }]], over: true };
    const [r0, r1] = composer.compose([base, over], 20, 2);
    expect(r0).toBe('ab [DLG] fghijklmnop');
    expect(stringWidth(r0!)).toBe(20);
    expect(r1).toBe('xxx123456' + 'x'.repeat(11));
  });

  it('cuts lines at cells, blanking halves of wide characters', () => {
    const line = [{ text: 'a漢b' }, { text: '字' }];
    expect(
      cutLine(line, 0, 2)
        .map((s) => s.text)
        .join(''),
    ).toBe('a ');
    expect(
      cutLine(line, 2, 6)
        .map((s) => s.text)
        .join(''),
    ).toBe(' b字');
    expect(
      cutLine(line, 1, 3)
        .map((s) => s.text)
        .join(''),
    ).toBe('漢');
    expect(
      cutLine(line, 5, 9)
        .map((s) => s.text)
        .join(''),
    ).toBe('    ');
  });
});
