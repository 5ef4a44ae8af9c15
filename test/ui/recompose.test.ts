/**
 * What a change costs the screen, counted rather than timed: the parts drawn again (ScreenMemo),
 * the lines styled again (FrameComposer) and the rows the painter writes (paintDiff). The counts are
 * pinned: a pane that loses its memo, or a line object made anew on every frame, raises one of them
 * and fails here, where a benchmark would only print a slower figure.
 */
import chalk from 'chalk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Run, Snapshot } from '../../src/model/model.js';
import { defaultBindings } from '../../src/keys/keymap.js';
import { FrameComposer } from '../../src/ui/frame-compose.js';
import { computeLayout } from '../../src/ui/layout.js';
import { wantsOf } from '../../src/ui/metrics.js';
import type { ScreenInput } from '../../src/ui/screen-blocks.js';
import { screenBlocks } from '../../src/ui/screen-blocks.js';
import { ScreenMemo } from '../../src/ui/screen-memo.js';
import type { UiState } from '../../src/ui/state/ui-state.js';
import { initialUiState } from '../../src/ui/state/ui-state.js';
import { deriveView } from '../../src/ui/state/view.js';
import { paintDiff } from '../../src/ui/terminal/screen-painter.js';
import { createTheme } from '../../src/ui/theme.js';
import { NOW, fixtureSnapshot } from './fixtures.js';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 3;
});
afterEach(() => {
  chalk.level = level;
});

const NO_ACTIVITY: ScreenInput['activity'] = [];
const COLUMNS = 120;
const ROWS = 40;

function input(snapshot: Snapshot, ui: UiState): ScreenInput {
  const view = deriveView(snapshot, [], ui);
  return {
    layout: computeLayout(COLUMNS, ROWS, wantsOf(view), view.focusable),
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
  };
}

/** A memo that notes the parts it draws again (each pane wrapped once, so the memo sees one function). */
class CountingMemo extends ScreenMemo {
  drawn: string[] = [];
  private key = '';
  private wrapped = new Map<unknown, unknown>();
  override draw<P extends object, T>(key: string, pane: (props: P) => T, props: P): T {
    let counted = this.wrapped.get(pane) as ((props: P) => T) | undefined;
    if (!counted) {
      counted = (q: P) => {
        this.drawn.push(this.key);
        return pane(q);
      };
      this.wrapped.set(pane, counted);
    }
    this.key = key;
    return super.draw(key, counted, props);
  }
}

/** The live screen's parts, as screen.tsx keeps them: one memo, one composer, the last frame's rows. */
function liveScreen(first: ScreenInput) {
  const memo = new CountingMemo();
  const composer = new FrameComposer(createTheme(true));
  const frame = (p: ScreenInput) => {
    const { blocks, height } = screenBlocks(p, memo);
    return composer.compose(blocks, COLUMNS, height);
  };
  let shown = frame(first);
  return {
    /** What drawing `p` after the frame before costs. */
    change(p: ScreenInput) {
      memo.drawn = [];
      const styled = composer.linesStyled;
      const next = frame(p);
      const written = (paintDiff(shown, next, COLUMNS, ROWS).match(/\u001b\[\d+;1H/g) ?? []).length;
      shown = next;
      return { parts: memo.drawn.join(' '), lines: composer.linesStyled - styled, rows: written };
    },
  };
}

/** The snapshot with one task of run `id` given another status, every other run the same object. */
function oneTaskChanged(s: Snapshot, id: string, status: string): Snapshot {
  return {
    ...s,
    runs: s.runs.map((r): Run =>
      r.id === id ? { ...r, tasks: r.tasks.map((t, i) => (i === 0 ? { ...t, status } : t)) } : r,
    ),
  };
}

describe('what a one-task change recomposes at 120×40', () => {
  const snapshot = fixtureSnapshot();
  const tina = snapshot.runs.find((r) => r.system === 'tina')!;
  const other = snapshot.runs.find((r) => r.id !== tina.id && r.system !== 'tina')!;
  const ui: UiState = { ...initialUiState(), selectedRunId: tina.id };

  it('draws nothing again for the same state but the footer (its hints are worked out each render)', () => {
    const screen = liveScreen(input(snapshot, ui));
    expect(screen.change(input(snapshot, ui))).toEqual({ parts: '', lines: 1, rows: 0 });
  });

  it('a task of the selected run: the header, the runs list and the panes drawn from that run; the preview is kept', () => {
    const screen = liveScreen(input(snapshot, ui));
    const changed = oneTaskChanged(snapshot, tina.id, 'pending');
    expect(screen.change(input(changed, ui))).toEqual({
      parts: [
        'header runs',
        'team team:title team:frame',
        'tasks:stats tasks tasks:title tasks:frame',
        'problems problems:title problems:frame',
        'gates gates:title gates:frame',
        'reviews reviews:title reviews:frame',
        'activity:title',
      ].join(' '),
      lines: 52,
      // The task's row and the task table's counts.
      rows: 2,
    });
  });

  it('a task of a run not selected: the header and the runs list only', () => {
    const withTask = { ...other, tasks: tina.tasks };
    const start = { ...snapshot, runs: snapshot.runs.map((r) => (r.id === other.id ? withTask : r)) };
    const screen = liveScreen(input(start, ui));
    const changed = oneTaskChanged(start, other.id, 'pending');
    expect(screen.change(input(changed, ui))).toEqual({ parts: 'header runs', lines: 10, rows: 0 });
  });

  it('a cursor move in the task table: that pane alone', () => {
    const focused: UiState = { ...ui, focus: 'tasks' };
    const screen = liveScreen(input(snapshot, focused));
    const moved: UiState = { ...focused, cursors: { ...focused.cursors, tasks: 1 } };
    expect(screen.change(input(snapshot, moved))).toEqual({ parts: 'tasks tasks:frame', lines: 21, rows: 2 });
  });
});
