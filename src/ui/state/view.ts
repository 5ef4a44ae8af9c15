/** The screen's view of the snapshot: visible runs, the selected run and rows, clamped. Pure. */
import type { Gate, Member, Run, Snapshot } from '../../model/model.js';
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
  /** Panes Tab cycles through: the problems pane only when there is something in it. */
  focusable: readonly PaneId[];
  /** How many teams have ended (listed last, folded unless shown). */
  ended: number;
}

/** Problems and warnings rows of a run plus the snapshot's own problems. */
export function noteCount(run: Run | null, snapshot: Snapshot): number {
  return (run ? run.problems.length + (run.warnings?.length ?? 0) : 0) + snapshot.problems.length;
}

/** Derives the view; `activityCount` is the number of activity entries. */
export function deriveView(snapshot: Snapshot, activityCount: number, ui: UiState): ScreenView {
  const runs = visibleRuns(snapshot.runs, ui.filter, ui.showEnded);
  const found = ui.selectedRunId === null ? -1 : runs.findIndex((r) => r.id === ui.selectedRunId);
  const runIndex = found >= 0 ? found : 0;
  const run = runs[runIndex] ?? null;
  const rows: Record<PaneId, number> = {
    runs: runs.length,
    team: run?.members.length ?? 0,
    // Scrolling the preview is bounded by its capture (the controller clamps it), not by a row count.
    preview: Number.MAX_SAFE_INTEGER,
    tasks: run?.tasks.length ?? 0,
    reviews: run?.reviews.length ?? 0,
    gates: run?.gates.length ?? 0,
    problems: noteCount(run, snapshot),
    activity: activityCount,
  };
  const cursors = Object.fromEntries(DETAIL_PANES.map((p) => [p, clamp(ui.cursors[p], rows[p])])) as Record<
    DetailPane,
    number
  >;
  const focusable = PANES.filter((p) => p !== 'problems' || rows.problems > 0);
  return {
    runs,
    run,
    runIndex,
    rows,
    cursors,
    member: run?.members[cursors.team] ?? null,
    gate: run?.gates[cursors.gates] ?? null,
    focusable,
    ended: endedCount(snapshot.runs),
  };
}

function clamp(i: number, count: number): number {
  return count <= 0 ? 0 : Math.min(Math.max(0, i), count - 1);
}
