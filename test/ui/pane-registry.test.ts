/**
 * The detail panes come from one registry: every pane it lists is focusable, has a slot on a wide
 * screen and a tab on a narrow one, is drawn with its own title, and Tab visits them in screen
 * order; no pane outside it can be focused or drawn.
 */
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import type { Command } from '../../src/keys/keymap.js';
import { KEYMAP, defaultBindings } from '../../src/keys/keymap.js';
import { computeLayout } from '../../src/ui/layout.js';
import { wantsOf } from '../../src/ui/metrics.js';
import { PANE_SPECS } from '../../src/ui/panes/registry.js';
import type { ScreenInput } from '../../src/ui/screen-blocks.js';
import { screenBlocks } from '../../src/ui/screen-blocks.js';
import type { PaneId, UiState } from '../../src/ui/state/ui-state.js';
import { DETAIL_PANES, PANES, initialUiState, uiReducer } from '../../src/ui/state/ui-state.js';
import { deriveView } from '../../src/ui/state/view.js';
import { NOW, fixtureSnapshot, harnessRun } from './fixtures.js';

function screenText(snapshot: Snapshot, ui: UiState, columns: number, rows: number): string {
  const view = deriveView(snapshot, [], ui);
  const input: ScreenInput = {
    layout: computeLayout(columns, rows, wantsOf(view), view.focusable),
    snapshot,
    loading: false,
    activity: [],
    ui,
    view,
    dialog: null,
    hints: [],
    bindings: defaultBindings(),
    readonly: false,
    contextThreshold: 70,
    gatesNow: NOW,
    teamNow: NOW,
    color: false,
    help: null,
    dialogBox: null,
  };
  const grid: string[] = Array.from({ length: rows }, () => '');
  for (const b of screenBlocks(input).blocks)
    b.lines.forEach((l, i) => {
      grid[b.y + i] = (grid[b.y + i] ?? '') + l.map((s) => s.text).join('');
    });
  return grid.join('\n');
}

/** A snapshot whose run has a problem, so that every registered pane has something to show. */
function withProblem(): Snapshot {
  const s = fixtureSnapshot();
  return { ...s, problems: [{ file: null, message: 'a problem of the box' }] };
}

describe('the pane registry', () => {
  it('is the Tab order and the only source of detail panes', () => {
    expect(DETAIL_PANES).toEqual(PANE_SPECS.map((s) => s.id));
    expect(PANES).toEqual(['runs', ...DETAIL_PANES]);
    expect(new Set(DETAIL_PANES).size).toBe(DETAIL_PANES.length);
    // Focusing an id the registry does not know lands nowhere new: the view's focusable list never has it.
    const view = deriveView(withProblem(), [], initialUiState());
    expect(view.focusable).toEqual(PANES);
    for (const p of view.focusable) expect(['runs', ...PANE_SPECS.map((s) => s.id)]).toContain(p);
  });

  it('gives every registered pane a slot on a wide screen, once, column by column in Tab order', () => {
    const view = deriveView(withProblem(), [], initialUiState());
    const layout = computeLayout(160, 50, wantsOf(view), view.focusable);
    expect(layout.kind).toBe('wide');
    if (layout.kind !== 'wide') return;
    const placed = layout.columns.flat().map((c) => c.pane);
    expect(placed).toEqual(DETAIL_PANES);
  });

  it('leaves a pane with nothing to show out of Tab and of the layout (problems with none)', () => {
    const quiet = { ...fixtureSnapshot([harnessRun()]), problems: [] };
    const view = deriveView(quiet, [], initialUiState());
    expect(view.rows.problems).toBe(0);
    expect(view.focusable).not.toContain('problems');
    const layout = computeLayout(160, 50, wantsOf(view), view.focusable);
    if (layout.kind !== 'wide') throw new Error('expected a wide layout');
    expect(layout.columns.flat().map((c) => c.pane)).not.toContain('problems');
  });

  it('draws each focused pane with its own title, wide and narrow; Tab walks them in order', () => {
    const snapshot = withProblem();
    let ui = initialUiState();
    const seen: PaneId[] = [];
    for (let i = 0; i < PANES.length; i++) {
      ui = uiReducer(ui, { type: 'focus-step', delta: 1, panes: deriveView(snapshot, [], ui).focusable });
      seen.push(ui.focus);
      if (ui.focus === 'runs') continue;
      const spec = PANE_SPECS.find((s) => s.id === ui.focus)!;
      const title = spec.title({ run: deriveView(snapshot, [], ui).run, problems: snapshot.problems, activity: [] });
      for (const [w, h] of [
        [160, 50],
        [80, 24],
      ] as const)
        expect(screenText(snapshot, ui, w, h)).toContain(`[> ${title}`);
    }
    expect(seen).toEqual([...DETAIL_PANES, 'runs']);
  });

  it("binds every command a pane owns to a key of the key table the pane's keys go through", () => {
    const owned = PANE_SPECS.flatMap((spec) => Object.keys(spec.commands ?? {}).map((c) => [spec.id, c] as const));
    expect(owned).toEqual(
      expect.arrayContaining([
        ['gates', 'read'],
        ['activity', 'read'],
        ['activity', 'attach'],
      ]),
    );
    const table = defaultBindings();
    for (const [, command] of owned) {
      const spec = KEYMAP.find((k) => k.command === command);
      expect(
        spec?.contexts.some((c) => c === 'pane' || c === 'global'),
        command,
      ).toBe(true);
      expect(table.keys[command as Command].length, command).toBeGreaterThan(0);
    }
  });
});
