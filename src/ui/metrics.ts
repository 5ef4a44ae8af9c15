/** Sizes the layout asks of the view, and the page sizes the router takes from the layout. Pure. */
import type { ScreenMetrics } from './controller/controller.js';
import type { OverlayBox } from './components/overlay.js';
import type { Layout, Rect, Wants } from './layout.js';
import type { DetailPane, PaneId } from './state/ui-state.js';
import type { ScreenView } from './state/view.js';

/** Lines each pane would like to show (frames excluded). */
export function wantsOf(view: ScreenView): Wants {
  const run = view.run;
  const body = view.gate ? Math.min(8, 2 + (view.gate.body?.split('\n').length ?? 0)) : 0;
  return {
    runs: Math.max(1, view.runs.length),
    team: Math.max(1, (run?.members.length ?? 0) + 1),
    preview: 12,
    tasks: Math.max(1, (run?.tasks.length ?? 0) + 2),
    reviews: Math.max(1, (run?.reviews.length ?? 0) + 1),
    gates: Math.max(1, (run?.gates.length ?? 0) + (body > 0 ? body + 1 : 0)),
    problems: Math.max(1, view.rows.problems),
    activity: Math.max(1, view.rows.activity),
  };
}

/** Lines above the rows of each list (column headers, summaries). */
const TOP_LINES: Record<DetailPane, number> = {
  team: 1,
  preview: 0,
  tasks: 2,
  reviews: 1,
  gates: 0,
  problems: 0,
  activity: 0,
};

/** Page sizes and scroll limits for the frame that is about to be drawn. */
export function screenMetrics(
  layout: Layout,
  help: { box: OverlayBox; body: readonly unknown[] } | null,
  dialog: { box: OverlayBox; text: { body: readonly unknown[] } } | null,
): ScreenMetrics {
  const page: Record<PaneId, number> = {
    runs: 1,
    team: 1,
    preview: 1,
    tasks: 1,
    reviews: 1,
    gates: 1,
    problems: 1,
    activity: 1,
  };
  const rows = (r: Rect, top: number) => Math.max(1, r.height - 2 - top);
  if (layout.kind !== 'too-small') {
    page.runs = rows(layout.runs, 1);
    const rects: [DetailPane, Rect][] =
      layout.kind === 'narrow'
        ? (Object.keys(TOP_LINES) as DetailPane[]).map((p) => [p, layout.detail])
        : layout.columns.flat().map((c) => [c.pane, c.rect]);
    for (const [pane, rect] of rects) page[pane] = rows(rect, TOP_LINES[pane]);
  }
  return {
    page,
    helpMax: help ? Math.max(0, help.body.length - help.box.bodyHeight) : 0,
    dialogMax: dialog ? Math.max(0, dialog.text.body.length - dialog.box.bodyHeight) : 0,
  };
}
