/**
 * Screen state as a reducer: which pane has focus, which run and rows are selected, the filter and
 * the help overlay. Pure; the router turns keys into these actions.
 */

import type { DetailPane } from '../panes/registry.js';
import { PANE_SPECS } from '../panes/registry.js';
import type { Move } from './moves.js';
import { moveIndex } from './moves.js';

export type { DetailPane } from '../panes/registry.js';
/** The detail panes, in Tab order (the registry's). */
export const DETAIL_PANES: readonly DetailPane[] = PANE_SPECS.map((s) => s.id);
/** The runs list, then the detail panes: the Tab order. */
export const PANES: readonly PaneId[] = ['runs', ...DETAIL_PANES];
export type PaneId = 'runs' | DetailPane;

/** Everything the screen remembers between keys. */
export interface UiState {
  focus: PaneId;
  /** The detail pane shown when only one fits (narrow terminals). */
  tab: DetailPane;
  /** The selected run by id, so it survives reordering; null = the first visible one. */
  selectedRunId: string | null;
  /** Selected row per detail pane, for the selected run. */
  cursors: Readonly<Record<DetailPane, number>>;
  filter: string;
  /** Whether the filter prompt is open (keys type into it). */
  filtering: boolean;
  /** Whether the teams that ended are listed (else folded into one line at the end of the list). */
  showEnded: boolean;
  help: boolean;
  helpScroll: number;
}

export type UiAction =
  | { type: 'select-run'; id: string | null }
  | { type: 'focus'; pane: PaneId }
  | { type: 'focus-step'; delta: 1 | -1; panes: readonly PaneId[] }
  | { type: 'cursor'; pane: DetailPane; index: number }
  /** A cursor move in a pane; `count` rows, `page` rows per page; runs move over `runIds` (the visible list). */
  | { type: 'move'; pane: PaneId; move: Move; count: number; page: number; runIds: readonly string[] }
  | { type: 'filter-open' }
  | { type: 'filter-text'; text: string }
  | { type: 'filter-accept'; firstId: string | null }
  | { type: 'filter-clear' }
  | { type: 'toggle-ended' }
  | { type: 'help'; open: boolean }
  | { type: 'help-scroll'; to: number };

// The preview's cursor is how many lines it is scrolled back from the bottom: 0 follows new output.
const ZERO = Object.fromEntries(DETAIL_PANES.map((p) => [p, 0])) as Record<DetailPane, number>;

/** The state a fresh screen starts in. */
export function initialUiState(): UiState {
  return {
    focus: 'runs',
    tab: 'gates',
    selectedRunId: null,
    cursors: ZERO,
    filter: '',
    filtering: false,
    showEnded: false,
    help: false,
    helpScroll: 0,
  };
}

/** Applies one action. */
export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'select-run':
      if (action.id === state.selectedRunId) return state;
      return { ...state, selectedRunId: action.id, cursors: ZERO };
    case 'focus':
      return focusOn(state, action.pane);
    case 'focus-step': {
      const panes = action.panes.length > 0 ? action.panes : PANES;
      const at = Math.max(0, panes.indexOf(state.focus));
      const next = panes[(at + action.delta + panes.length) % panes.length] ?? 'runs';
      return focusOn(state, next);
    }
    case 'cursor':
      if (state.cursors[action.pane] === action.index) return state;
      return { ...state, cursors: { ...state.cursors, [action.pane]: Math.max(0, action.index) } };
    case 'move': {
      if (action.pane === 'runs') {
        const at = Math.max(0, action.runIds.indexOf(state.selectedRunId ?? ''));
        const to = moveIndex(action.move, { index: at, count: action.runIds.length, page: action.page });
        return to === null ? state : uiReducer(state, { type: 'select-run', id: action.runIds[to] ?? null });
      }
      const pane = action.pane;
      // The cursor may point past the end after the data shrank: move from where it shows.
      const at = Math.min(state.cursors[pane], Math.max(0, action.count - 1));
      const to = moveIndex(action.move, { index: at, count: action.count, page: action.page });
      return to === null ? state : uiReducer(state, { type: 'cursor', pane, index: to });
    }
    case 'filter-open':
      return { ...state, filtering: true, focus: 'runs' };
    case 'filter-text':
      return { ...state, filter: action.text };
    case 'filter-accept':
      return {
        ...state,
        filtering: false,
        focus: 'runs',
        selectedRunId: action.firstId ?? state.selectedRunId,
        cursors: action.firstId && action.firstId !== state.selectedRunId ? ZERO : state.cursors,
      };
    case 'filter-clear':
      return { ...state, filtering: false, filter: '' };
    case 'toggle-ended':
      return { ...state, showEnded: !state.showEnded };
    case 'help':
      return { ...state, help: action.open, helpScroll: 0 };
    case 'help-scroll':
      return { ...state, helpScroll: Math.max(0, action.to) };
  }
}

function focusOn(state: UiState, pane: PaneId): UiState {
  if (pane === state.focus) return state;
  return pane === 'runs' ? { ...state, focus: pane } : { ...state, focus: pane, tab: pane };
}
