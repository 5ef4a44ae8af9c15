/**
 * The control room's opening screen, without React: the screen's own blocks (screen-blocks.ts) for
 * the state the session starts in (runs list focused, first run selected, no filter, dialog or
 * help, no activity or capture yet). The launcher paints it as soon as the snapshot is read, while
 * React and ink are still loading; the session's first frame then lands on an identical screen.
 */
import type { Snapshot } from '../../model/model.js';
import type { Bindings } from '../../keys/keymap.js';
import { computeLayout } from '../layout.js';
import { wantsOf } from '../metrics.js';
import type { Placed } from '../screen-blocks.js';
import { gatesResolution, screenBlocks } from '../screen-blocks.js';
import { availableHints } from '../state/available.js';
import { initialUiState } from '../state/ui-state.js';
import { deriveView } from '../state/view.js';

/** What the opening screen is drawn from. */
export interface OpeningScreen {
  snapshot: Snapshot;
  columns: number;
  rows: number;
  bindings: Bindings;
  readonly: boolean;
  /** Context threshold for runs that name none. */
  contextThreshold: number;
  /** Now in ms (gate ages). */
  now: number;
  /** Whether colour is on (the theme's). */
  color?: boolean | undefined;
}

/** The opening screen as blocks placed on a grid `height` rows tall. */
export function openingScreen(s: OpeningScreen): { blocks: Placed[]; height: number } {
  const ui = initialUiState();
  const view = deriveView(s.snapshot, [], ui);
  const layout = computeLayout(s.columns, s.rows, wantsOf(view), view.focusable);
  const hints = availableHints({
    view,
    focus: ui.focus,
    help: false,
    dialog: null,
    filtering: false,
    filter: '',
    cancellable: false,
    dialogScrolls: false,
  });
  // The clocks as the session's hooks round them.
  const coarse = Math.floor(s.now / 60_000) * 60_000;
  const resolution = gatesResolution(view.run, coarse);
  return screenBlocks({
    layout,
    snapshot: s.snapshot,
    loading: false,
    activity: [],
    ui,
    view,
    dialog: null,
    hints,
    bindings: s.bindings,
    readonly: s.readonly,
    contextThreshold: s.contextThreshold,
    gatesNow: Math.floor(s.now / resolution) * resolution,
    teamNow: Math.floor(s.now / 10_000) * 10_000,
    color: s.color ?? false,
    help: null,
    dialogBox: null,
  });
}
