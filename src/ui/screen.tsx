/**
 * The whole screen for one state: header, runs list, the detail panes (side by side or behind
 * tabs), footer, and a dialog or the help drawn over them. A pure view of its props.
 */
import { Box } from 'ink';
import type { Snapshot } from '../model.js';
import type { PaneWatch } from '../store/captures.js';
import type { ActivityEntry } from '../store/types.js';
import { footerLine, headerLine, tabBarLine } from './components/chrome.js';
import { dialogText } from './components/dialog-lines.js';
import { helpLines } from './components/help-lines.js';
import { Line, Lines } from './components/line.js';
import { Overlay, overlayBox } from './components/overlay.js';
import type { Bindings } from '../keys/keymap.js';
import type { Layout } from './layout.js';
import { MIN_SIZE } from './layout.js';
import { DetailPaneView, paneTitle } from './panes/detail-pane.js';
import { RunsPane } from './panes/runs-pane.js';
import { keyLabel } from '../keys/key-name.js';
import type { Hint } from './state/available.js';
import { previewMember } from './state/selectors.js';
import type { Dialog } from './state/dialog-state.js';
import type { DetailPane, UiState } from './state/ui-state.js';
import { DETAIL_PANES } from './state/ui-state.js';
import type { ScreenView } from './state/view.js';
import { fitLine } from './text/segments.js';
import { wrapText } from './text/width.js';

/** Everything the screen draws. */
export interface ScreenProps {
  layout: Layout;
  snapshot: Snapshot;
  loading: boolean;
  /** While loading: what is being read (see SessionState). */
  reading?: string | undefined;
  /** Notifications muted (the header says so). */
  muted?: boolean | undefined;
  activity: readonly ActivityEntry[];
  ui: UiState;
  view: ScreenView;
  dialog: Dialog | null;
  hints: readonly Hint[];
  bindings: Bindings;
  readonly: boolean;
  contextThreshold: number;
  /** Pane captures for the preview (null: none). */
  watch?: PaneWatch | null | undefined;
}

const DIALOG_WIDTH = 100;
const HELP_WIDTH = 110;

/** The help overlay's box and lines (the router needs the same numbers to scroll). */
export function helpOverlay(bindings: Bindings, width: number, height: number) {
  const probe = overlayBox(width, height, 0, HELP_WIDTH);
  const body = helpLines(bindings, probe.bodyWidth);
  return { box: overlayBox(width, height, body.length, HELP_WIDTH), body };
}

/** A dialog's box and lines. */
export function dialogOverlay(dialog: Dialog, bindings: Bindings, readonly: boolean, width: number, height: number) {
  const probe = overlayBox(width, height, 0, DIALOG_WIDTH);
  const text = dialogText(dialog, probe.bodyWidth, bindings, readonly);
  return { box: overlayBox(width, height, text.body.length, DIALOG_WIDTH), text };
}

function detailProps(p: ScreenProps, pane: DetailPane) {
  return {
    pane,
    focused: p.ui.focus === pane && !p.ui.filtering,
    run: p.view.run,
    snapshot: p.snapshot,
    activity: p.activity,
    cursor: p.view.cursors[pane],
    watch: p.watch ?? null,
    previewMember: previewMember(p.view.run, p.view.member, p.ui.focus),
    contextThreshold: p.contextThreshold,
  };
}

/** The screen. */
export function Screen(p: ScreenProps) {
  const { layout } = p;
  const width = layout.width;
  if (layout.kind === 'too-small') {
    const msg = `tower needs at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this terminal is ${layout.width}×${layout.height}`;
    const lines = wrapText(msg, width).slice(0, Math.max(1, layout.height)).map((l) => fitLine([{ text: l, tone: 'amber' }], width));
    return <Lines lines={lines} width={width} />;
  }
  const runs = (
    <RunsPane
      runs={p.view.runs}
      total={p.snapshot.runs.length}
      selectedIndex={p.view.runIndex}
      focused={p.ui.focus === 'runs' || p.ui.filtering}
      filter={p.ui.filter}
      filtering={p.ui.filtering}
      contextThreshold={p.contextThreshold}
      rect={layout.runs}
      reading={p.loading ? (p.reading ?? '') : null}
      folded={p.ui.filter === '' && !p.ui.showEnded ? p.snapshot.runs.length - p.view.runs.length : 0}
      foldKey={keyLabel(p.bindings.keys.ended[0] ?? 'E')}
    />
  );
  let body;
  if (layout.kind === 'narrow') {
    const tabs = DETAIL_PANES.filter((d) => p.view.focusable.includes(d)).map((d) => ({ pane: d, label: paneTitle(d, p.view.run, p.snapshot, p.activity).replace(' · ', ' ') }));
    const shown = p.ui.focus === 'runs' ? p.ui.tab : p.ui.focus;
    body = (
      <>
        {runs}
        <Line segments={tabBarLine(tabs, shown, p.ui.focus !== 'runs', width)} />
        <DetailPaneView {...detailProps(p, shown)} rect={layout.detail} />
      </>
    );
  } else {
    body = (
      <>
        {runs}
        <Box flexDirection="row" width={width}>
          {layout.columns.map((col, i) => (
            <Box key={i} flexDirection="column" width={col[0]?.rect.width ?? 0} flexShrink={0}>
              {col.map((placed) => (
                <DetailPaneView key={placed.pane} {...detailProps(p, placed.pane)} rect={placed.rect} />
              ))}
            </Box>
          ))}
        </Box>
      </>
    );
  }
  let overlay = null;
  if (p.ui.help) {
    const { box, body: lines } = helpOverlay(p.bindings, width, layout.height);
    overlay = <Overlay box={box} title="Keys" body={lines} scroll={Math.min(p.ui.helpScroll, Math.max(0, lines.length - box.bodyHeight))} />;
  } else if (p.dialog) {
    const { box, text } = dialogOverlay(p.dialog, p.bindings, p.readonly, width, layout.height);
    const scroll = p.dialog.kind === 'confirm' || p.dialog.kind === 'read' ? Math.min(p.dialog.scroll, Math.max(0, text.body.length - box.bodyHeight)) : 0;
    overlay = <Overlay box={box} title={text.title} body={text.body} scroll={scroll} />;
  }
  return (
    <Box flexDirection="column" width={width} height={layout.height}>
      <Line segments={headerLine(p.snapshot, width, p.readonly, p.loading, p.muted ?? false)} />
      {body}
      <Line segments={footerLine(p.hints, p.bindings, width)} />
      {overlay}
    </Box>
  );
}
