/**
 * One frame of the control room, derived once from everything the screen holds: the view of the
 * snapshot, the layout for the terminal's size, the help's and the dialog's boxes, the page sizes
 * the keys move by, and the footer's hints. The screen draws it and the keys act on it, both
 * through the same deriver, so a key moves by the pages the frame on screen has; nothing is written
 * while React renders for the keys to read later.
 */
import type { Bindings } from '../keys/keymap.js';
import type { Snapshot } from '../model/model.js';
import type { ActivityEntry } from '../store/types.js';
import type { TerminalSize } from './hooks/use-terminal-size.js';
import type { Layout } from './layout.js';
import { computeLayout } from './layout.js';
import type { ScreenMetrics } from './metrics.js';
import { screenMetrics, wantsOf } from './metrics.js';
import type { DialogOverlay, HelpOverlay } from './screen-blocks.js';
import { dialogOverlay, helpOverlay } from './screen-blocks.js';
import type { Hint } from './state/available.js';
import { availableHints } from './state/available.js';
import type { Dialog } from './state/dialog-state.js';
import type { UiState } from './state/ui-state.js';
import type { ScreenView } from './state/view.js';
import { deriveView } from './state/view.js';

/** Everything a frame is derived from. */
export interface FrameInputs {
  snapshot: Snapshot;
  activity: readonly ActivityEntry[];
  ui: UiState;
  dialog: Dialog | null;
  size: TerminalSize;
  bindings: Bindings;
  readonly: boolean;
  /** Whether a running action can be cancelled (Esc), and whether notifications are muted. */
  cancellable: boolean;
  muted: boolean;
}

/** One frame: what the screen draws and what the keys act on. */
export interface Frame {
  view: ScreenView;
  layout: Layout;
  help: HelpOverlay | null;
  dialogBox: DialogOverlay | null;
  metrics: ScreenMetrics;
  hints: Hint[];
}

/** The frame for `i`. Pure. */
export function deriveFrame(i: FrameInputs, view = deriveView(i.snapshot, i.activity, i.ui)): Frame {
  const { columns, rows } = i.size;
  const layout = computeLayout(columns, rows, wantsOf(view), view.focusable);
  const help = i.ui.help ? helpOverlay(i.bindings, columns, rows) : null;
  const dialogBox = i.dialog ? dialogOverlay(i.dialog, i.bindings, i.readonly, columns, rows) : null;
  const metrics = screenMetrics(layout, help, dialogBox);
  const hints = availableHints({
    view,
    focus: i.ui.focus,
    help: i.ui.help,
    dialog: i.dialog,
    filtering: i.ui.filtering,
    filter: i.ui.filter,
    cancellable: i.cancellable,
    dialogScrolls: metrics.dialogMax > 0,
    muted: i.muted,
  });
  return { view, layout, help, dialogBox, metrics, hints };
}

/**
 * deriveFrame kept on its inputs: the same inputs (field by field) give the same frame object, and
 * the view is derived again only when the snapshot, the activity or the screen's state changed.
 */
export function frameDeriver(): (i: FrameInputs) => Frame {
  let last: { inputs: FrameInputs; frame: Frame } | null = null;
  return (i) => {
    if (last && sameInputs(last.inputs, i)) return last.frame;
    const keepView =
      last && last.inputs.snapshot === i.snapshot && last.inputs.activity === i.activity && last.inputs.ui === i.ui;
    const frame = deriveFrame(i, keepView && last ? last.frame.view : undefined);
    last = { inputs: i, frame };
    return frame;
  };
}

function sameInputs(a: FrameInputs, b: FrameInputs): boolean {
  return (
    a.snapshot === b.snapshot &&
    a.activity === b.activity &&
    a.ui === b.ui &&
    a.dialog === b.dialog &&
    a.size.columns === b.size.columns &&
    a.size.rows === b.size.rows &&
    a.bindings === b.bindings &&
    a.readonly === b.readonly &&
    a.cancellable === b.cancellable &&
    a.muted === b.muted
  );
}
