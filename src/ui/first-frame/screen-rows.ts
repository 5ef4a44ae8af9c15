/**
 * The control room's opening screen as rows of styled segments, without React: the same layout and
 * the same pane functions the live screen draws with, for the state the session starts in (runs
 * list focused, first run selected, no filter, dialog or help, no activity yet). The launcher
 * paints these rows as soon as the snapshot is read, while React and ink are still loading; ink's
 * first frame then lands on an identical screen.
 */
import type { Snapshot } from '../../model.js';
import { footerLine, headerLine, tabBarLine } from '../components/chrome.js';
import { frameLines } from '../components/frame.js';
import type { Bindings } from '../../keys/keymap.js';
import type { Rect } from '../layout.js';
import { computeLayout, MIN_SIZE } from '../layout.js';
import { wantsOf } from '../metrics.js';
import { activityLines } from '../panes/activity-pane.js';
import { gatesLines } from '../panes/gates-pane.js';
import { paneTitle } from '../panes/pane-title.js';
import { previewFrame } from '../panes/preview-lines.js';
import { problemsLines } from '../panes/problems-pane.js';
import { reviewsLines } from '../panes/reviews-pane.js';
import { runsPaneLines } from '../panes/runs-lines.js';
import { taskStats, tasksLines } from '../panes/tasks-pane.js';
import { teamLines } from '../panes/team-pane.js';
import { availableHints } from '../state/available.js';
import { previewMember } from '../state/selectors.js';
import type { DetailPane } from '../state/ui-state.js';
import { DETAIL_PANES, initialUiState } from '../state/ui-state.js';
import type { ScreenView } from '../state/view.js';
import { deriveView } from '../state/view.js';
import type { Segment } from '../text/segments.js';
import { fitLine } from '../text/segments.js';
import { wrapText } from '../text/width.js';

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
}

/** One block of the screen: its lines, starting at column `x` of row `y`. */
export interface Placed {
  x: number;
  y: number;
  lines: Segment[][];
}

/** Ages under two minutes count seconds, older ones minutes: the rounding the gates pane's clock uses. */
function gatesNow(view: ScreenView, now: number): number {
  const coarse = Math.floor(now / 60_000) * 60_000;
  const young = view.run?.gates.some((g) => g.since && coarse - Date.parse(g.since) < 120_000);
  const resolution = young ? 1000 : 60_000;
  return Math.floor(now / resolution) * resolution;
}

function detailLines(pane: DetailPane, rect: Rect, view: ScreenView, s: OpeningScreen): Segment[][] {
  const run = view.run;
  const w = rect.width - 2;
  const h = rect.height - 2;
  const cursor = view.cursors[pane];
  let content: Segment[][];
  if (pane === 'gates') content = gatesLines(run, cursor, false, w, h, gatesNow(view, s.now));
  else if (pane === 'tasks') content = tasksLines(run, taskStats(run), cursor, false, w, h);
  // The team pane's clock ticks every ten seconds.
  else if (pane === 'team') content = teamLines(run, cursor, false, w, h, Math.floor(s.now / 10_000) * 10_000, s.contextThreshold);
  else if (pane === 'reviews') content = reviewsLines(run, cursor, false, w, h);
  else if (pane === 'problems') content = problemsLines(run, s.snapshot, cursor, false, w, h);
  else if (pane === 'preview') {
    // Nothing is captured before the live store's first tick: the preview says it waits for that.
    return previewFrame({ member: previewMember(run, view.member, 'runs'), hasRun: run !== null, host: run?.host ?? null, look: undefined, lines: null, focused: false, scroll: 0, rect });
  } else content = activityLines([], cursor, false, h);
  return frameLines(paneTitle(pane, run, s.snapshot, []), false, rect, content);
}

/** The opening screen as blocks placed on a grid `height` rows tall (rows below the last block stay blank). */
export function openingScreen(s: OpeningScreen): { blocks: Placed[]; height: number } {
  const ui = initialUiState();
  const view = deriveView(s.snapshot, 0, ui);
  const layout = computeLayout(s.columns, s.rows, wantsOf(view), view.rows.problems > 0);
  const width = layout.width;
  if (layout.kind === 'too-small') {
    const msg = `tower needs at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this terminal is ${layout.width}×${layout.height}`;
    const lines = wrapText(msg, width).slice(0, Math.max(1, layout.height)).map((l) => fitLine([{ text: l, tone: 'amber' }], width));
    return { blocks: [{ x: 0, y: 0, lines }], height: lines.length };
  }
  const hints = availableHints({ view, focus: ui.focus, help: false, dialog: null, filtering: false, filter: '', cancellable: false, dialogScrolls: false });
  const runs = runsPaneLines({
    runs: view.runs,
    total: s.snapshot.runs.length,
    selectedIndex: view.runIndex,
    focused: true,
    filter: '',
    filtering: false,
    contextThreshold: s.contextThreshold,
    rect: layout.runs,
  });
  const placed: Placed[] = [
    { x: 0, y: 0, lines: [headerLine(s.snapshot, width, s.readonly, false)] },
    { x: 0, y: 1, lines: runs },
  ];
  let y = 1 + runs.length;
  if (layout.kind === 'narrow') {
    const tabs = DETAIL_PANES.filter((d) => view.focusable.includes(d)).map((d) => ({ pane: d, label: paneTitle(d, view.run, s.snapshot, []).replace(' · ', ' ') }));
    placed.push({ x: 0, y, lines: [tabBarLine(tabs, ui.tab, false, width)] });
    const detail = detailLines(ui.tab, layout.detail, view, s);
    placed.push({ x: 0, y: y + 1, lines: detail });
    y += 1 + detail.length;
  } else {
    let x = 0;
    let tallest = 0;
    for (const column of layout.columns) {
      let top = y;
      for (const { pane, rect } of column) {
        const lines = detailLines(pane, rect, view, s);
        placed.push({ x, y: top, lines });
        top += lines.length;
      }
      tallest = Math.max(tallest, top - y);
      x += column[0]?.rect.width ?? 0;
    }
    y += tallest;
  }
  placed.push({ x: 0, y, lines: [footerLine(hints, s.bindings, width)] });
  return { blocks: placed, height: layout.height };
}
