/** Sizes the layout asks of the view, and the page sizes the router takes from the layout. Pure. */
import type { OverlayBox } from './components/overlay.js';
import type { Rect } from './geometry.js';
import type { Layout, Wants } from './layout.js';
import { PANE_SPECS, paneSpec } from './panes/registry.js';
import type { PaneId } from './state/ui-state.js';
import { PANES } from './state/ui-state.js';
import type { ScreenView } from './state/view.js';

/** Sizes the frame on screen has, so paging and scrolling match what is drawn. */
export interface ScreenMetrics {
  page: Record<PaneId, number>;
  /** Largest first line of the help overlay and of the confirm dialog. */
  helpMax: number;
  dialogMax: number;
}

/** Lines each pane would like to show (frames excluded). */
export function wantsOf(view: ScreenView): Wants {
  const wants: Record<string, number> = { runs: Math.max(1, view.runs.length) };
  for (const s of PANE_SPECS) wants[s.id] = s.wants({ ...view.data, gate: view.gate });
  return wants as Wants;
}

/** One row a page for every pane: the sizes before the first frame is laid out. */
export function firstPages(): Record<PaneId, number> {
  return Object.fromEntries(PANES.map((p) => [p, 1])) as Record<PaneId, number>;
}

/** Page sizes and scroll limits for the frame that is about to be drawn. */
export function screenMetrics(
  layout: Layout,
  help: { box: OverlayBox; body: readonly unknown[] } | null,
  dialog: { box: OverlayBox; text: { body: readonly unknown[] } } | null,
): ScreenMetrics {
  const page = firstPages();
  const rows = (r: Rect, top: number) => Math.max(1, r.height - 2 - top);
  if (layout.kind !== 'too-small') {
    page.runs = rows(layout.runs, 1);
    const rects =
      layout.kind === 'narrow' ? PANE_SPECS.map((s) => ({ pane: s.id, rect: layout.detail })) : layout.columns.flat();
    for (const { pane, rect } of rects) page[pane] = rows(rect, paneSpec(pane).topLines);
  }
  return {
    page,
    helpMax: help ? Math.max(0, help.body.length - help.box.bodyHeight) : 0,
    dialogMax: dialog ? Math.max(0, dialog.text.body.length - dialog.box.bodyHeight) : 0,
  };
}
