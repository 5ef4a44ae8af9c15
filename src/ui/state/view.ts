/** The screen's view of the snapshot: visible runs, the selected run and rows, clamped. Pure. */
import type { Gate, Member, Run, Snapshot } from '../../model/model.js';
import type { ActivityEntry } from '../../store/types.js';
import type { PaneData } from '../panes/pane-spec.js';
import { PANE_SPECS, paneSpec } from '../panes/registry.js';
import { endedCount, visibleRuns } from './selectors.js';
import type { DetailPane, PaneId, UiState } from './ui-state.js';
import { DETAIL_PANES, PANES } from './ui-state.js';

/** What the panes draw and the router acts on. */
export interface ScreenView {
  runs: readonly Run[];
  run: Run | null;
  runIndex: number;
  /** Rows per pane (for cursor movement). */
  rows: Readonly<Record<PaneId, number>>;
  /** Cursors clamped to the rows there are. */
  cursors: Readonly<Record<DetailPane, number>>;
  /** The selected member and gate (null when the pane is empty). */
  member: Member | null;
  gate: Gate | null;
  /** Panes Tab cycles through and the screen draws (the problems pane only when it has a row). */
  focusable: readonly PaneId[];
  /** What the detail panes count and draw from: the selected run, the snapshot's problems, the activity. */
  data: PaneData;
  /** How many teams have ended (listed last, folded unless shown). */
  ended: number;
}

/** Derives the view from the snapshot, the activity entries and the screen's state. */
export function deriveView(snapshot: Snapshot, activity: readonly ActivityEntry[], ui: UiState): ScreenView {
  const runs = visibleRuns(snapshot.runs, ui.filter, ui.showEnded);
  const found = ui.selectedRunId === null ? -1 : runs.findIndex((r) => r.id === ui.selectedRunId);
  const runIndex = found >= 0 ? found : 0;
  const run = runs[runIndex] ?? null;
  const data: PaneData = { run, problems: snapshot.problems, activity };
  const rows = Object.fromEntries([['runs', runs.length], ...PANE_SPECS.map((s) => [s.id, s.rows(data)])]) as Record<
    PaneId,
    number
  >;
  const cursors = Object.fromEntries(DETAIL_PANES.map((p) => [p, clamp(ui.cursors[p], rows[p])])) as Record<
    DetailPane,
    number
  >;
  const focusable = PANES.filter((p) => p === 'runs' || (paneSpec(p).shown?.(rows[p]) ?? true));
  return {
    runs,
    run,
    runIndex,
    rows,
    cursors,
    member: run?.members[cursors.team] ?? null,
    gate: run?.gates[cursors.gates] ?? null,
    focusable,
    data,
    ended: endedCount(snapshot.runs),
  };
}

function clamp(i: number, count: number): number {
  return count <= 0 ? 0 : Math.min(Math.max(0, i), count - 1);
}
