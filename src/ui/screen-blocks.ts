/**
 * The whole screen for one state as placed blocks of styled segments: header, runs list, the
 * detail panes (side by side or behind tabs), footer, and a dialog or the help over them. Pure,
 * without React: the live screen and the launcher's opening frame draw with it alike.
 *
 * Each block is worked out again only when what it is drawn from changed (`ScreenMemo`): a task
 * rewritten in one run rebuilds the runs list rows and that run's panes, and leaves every other
 * line (and its styled text, see frame-compose.ts) as it was.
 */
import type { DeniedByRule } from './session-state.js';
import type { Member, Run, Snapshot } from '../model/model.js';
import type { PaneLook } from '../store/captures.js';
import type { ActivityEntry } from '../store/types.js';
import type { Bindings } from '../keys/keymap.js';
import { keyLabel } from '../keys/key-name.js';
import { footerLine, headerLine, tabBarLine } from './components/chrome.js';
import { dialogText } from './components/dialog-lines.js';
import { frameLines } from './components/frame.js';
import { helpLines } from './components/help-lines.js';
import type { OverlayBox } from './components/overlay.js';
import { overlayBox } from './components/overlay.js';
import type { Layout, Rect } from './layout.js';
import { MIN_SIZE } from './layout.js';
import type { PaneData } from './panes/pane-spec.js';
import { paneTitle } from './panes/pane-spec.js';
import { paneSpec } from './panes/registry.js';
import { runsPaneLines } from './panes/runs-lines.js';
import { ScreenMemo } from './screen-memo.js';
import type { Hint } from './state/available.js';
import type { Dialog } from './state/dialog-state.js';
import type { DetailPane, UiState } from './state/ui-state.js';
import { DETAIL_PANES } from './state/ui-state.js';
import type { ScreenView } from './state/view.js';
import type { Segment } from './text/segments.js';
import { fitLine } from './text/segments.js';
import { wrapText } from './text/width.js';

/** One block of the screen: its lines, starting at column `x` of row `y`, `width` cells wide. */
export interface Placed {
  x: number;
  y: number;
  width: number;
  lines: readonly (readonly Segment[])[];
  /** Drawn over whatever is beneath (a dialog, the help). */
  over?: boolean;
}

/** Everything the screen is drawn from. */
export interface ScreenInput {
  layout: Layout;
  snapshot: Snapshot;
  loading: boolean;
  /** While loading: what is being read (see SessionState). */
  reading?: string | undefined;
  /** Notifications muted (the header says so). */
  muted?: boolean | undefined;
  /** What rules answered for the operator (`12 allowed by rule`), said in the header. */
  byRule?: string | undefined;
  /** Members whose request a rule denied (`<run id>/<member>`), shown in the team pane. */
  deniedByRule?: ReadonlyMap<string, DeniedByRule> | undefined;
  activity: readonly ActivityEntry[];
  ui: UiState;
  view: ScreenView;
  dialog: Dialog | null;
  hints: readonly Hint[];
  bindings: Bindings;
  readonly: boolean;
  contextThreshold: number;
  /** Now as the gates pane counts ages (see gatesResolution), and as the team pane does (teamResolution). */
  gatesNow: number;
  teamNow: number;
  /** What was last captured of a member's pane (none: the preview waits for the first capture). */
  look?: ((m: Member, run: Run | null) => PaneLook | undefined) | undefined;
  /** Why a run's box cannot stream its panes here (an older tower there), or null. */
  previewNote?: ((run: Run) => string | null) | undefined;
  /** Whether the preview keeps the pane's own colours. */
  color: boolean;
  /** The help's and the dialog's boxes and lines when they are open (worked out once, with the keys' metrics). */
  help: HelpOverlay | null;
  dialogBox: DialogOverlay | null;
}

export type HelpOverlay = ReturnType<typeof helpOverlay>;
export type DialogOverlay = ReturnType<typeof dialogOverlay>;

const DIALOG_WIDTH = 100;
const HELP_WIDTH = 110;

/** Ages under two minutes count seconds; older ones only minutes, so the clock redraws less. */
export function gatesResolution(run: Run | null, now: number): number {
  const young = run?.gates.some((g) => g.since && now - Date.parse(g.since) < 120_000);
  return young ? 1000 : 60_000;
}

/**
 * How finely the team pane counts time in each member's state: every second while a member of the
 * run shown has been in its state for under a minute (its age reads in seconds), else every minute.
 */
export function teamResolution(run: Run | null, now: number): number {
  const young = run?.members.some((m) => m.activitySince && now - Date.parse(m.activitySince) < 60_000);
  return young ? 1000 : 60_000;
}

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

/** An overlay's lines: its frame around the body from line `scroll`. */
function overlayLines(box: OverlayBox, title: string, body: readonly Segment[][], scroll: number): Segment[][] {
  const visible = body.slice(scroll, scroll + box.bodyHeight).map((l): Segment[] => [{ text: ' ' }, ...l]);
  const more = body.length > scroll + box.bodyHeight;
  return frameLines(more ? `${title} (more ↓)` : title, true, { width: box.width, height: box.height }, visible);
}

/** What the detail panes count and draw from, as this frame holds it. */
function paneData(p: ScreenInput): PaneData {
  return { run: p.view.run, problems: p.snapshot.problems, activity: p.activity };
}

/** A detail pane's lines in its rect: what its record draws from the screen's input. */
function detailBlock(p: ScreenInput, memo: ScreenMemo, pane: DetailPane, rect: Rect): readonly (readonly Segment[])[] {
  // One slot per pane, whatever its size: a resize replaces it rather than adding one.
  return paneSpec(pane).draw({
    ...paneData(p),
    memo,
    rect,
    cursor: p.view.cursors[pane],
    focused: p.ui.focus === pane && !p.ui.filtering,
    member: p.view.member,
    focus: p.ui.focus,
    contextThreshold: p.contextThreshold,
    gatesNow: p.gatesNow,
    teamNow: p.teamNow,
    deniedByRule: p.deniedByRule,
    look: p.look,
    previewNote: p.previewNote,
    color: p.color,
  });
}

/** The screen as blocks on a grid `layout.height` rows tall. */
export function screenBlocks(
  p: ScreenInput,
  memo: ScreenMemo = new ScreenMemo(),
): { blocks: Placed[]; height: number } {
  const { layout } = p;
  const width = layout.width;
  if (layout.kind === 'too-small') return tooSmall(layout.width, layout.height);
  const header = memo.draw('header', headerLine, {
    snapshot: p.snapshot,
    width,
    readonly: p.readonly,
    loading: p.loading,
    muted: p.muted ?? false,
    byRule: p.byRule ?? '',
  });
  const runs = runsBlock(p, memo, layout.runs);
  const blocks: Placed[] = [
    { x: 0, y: 0, width, lines: [header] },
    { x: 0, y: 1, width: layout.runs.width, lines: runs },
  ];
  const y = detailBlocks(p, memo, 1 + runs.length, blocks);
  blocks.push({ x: 0, y, width, lines: [footerLine(p.hints, p.bindings, width)] });
  const overlay = overlayBlock(p);
  if (overlay) blocks.push(overlay);
  return { blocks, height: layout.height };
}

/** A terminal below the least size: says so, and what size it is. */
function tooSmall(width: number, height: number): { blocks: Placed[]; height: number } {
  const msg = `tower needs at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this terminal is ${width}×${height}`;
  const lines = wrapText(msg, width)
    .slice(0, Math.max(1, height))
    .map((l) => fitLine([{ text: l, tone: 'amber' }], width));
  return { blocks: [{ x: 0, y: 0, width, lines }], height: Math.max(lines.length, height) };
}

/** The runs list's lines. */
function runsBlock(p: ScreenInput, memo: ScreenMemo, rect: Rect): Segment[][] {
  const { snapshot, ui, view } = p;
  return memo.draw('runs', runsPaneLines, {
    runs: view.runs,
    total: snapshot.runs.length,
    selectedIndex: view.runIndex,
    focused: ui.focus === 'runs' || ui.filtering,
    filter: ui.filter,
    filtering: ui.filtering,
    contextThreshold: p.contextThreshold,
    width: rect.width,
    height: rect.height,
    reading: p.loading ? (p.reading ?? '') : null,
    folded: ui.filter === '' && !ui.showEnded ? snapshot.runs.length - view.runs.length : 0,
    foldKey: keyLabel(p.bindings.keys.ended[0] ?? 'E'),
  });
}

/**
 * The detail panes from row `y` down, pushed onto `blocks`: one at a time under a tab bar on a
 * narrow screen, else column by column. Returns the row below them.
 */
function detailBlocks(p: ScreenInput, memo: ScreenMemo, y: number, blocks: Placed[]): number {
  const { layout, ui, view } = p;
  if (layout.kind === 'narrow') {
    const tabs = DETAIL_PANES.filter((d) => view.focusable.includes(d)).map((d) => ({
      pane: d,
      label: paneTitle(paneSpec(d), memo, paneData(p)).replace(' · ', ' '),
    }));
    const shown = ui.focus === 'runs' ? ui.tab : ui.focus;
    blocks.push({ x: 0, y, width: layout.width, lines: [tabBarLine(tabs, shown, ui.focus !== 'runs', layout.width)] });
    const detail = detailBlock(p, memo, shown, layout.detail);
    blocks.push({ x: 0, y: y + 1, width: layout.detail.width, lines: detail });
    return y + 1 + detail.length;
  }
  if (layout.kind !== 'wide') return y;
  let x = 0;
  let tallest = 0;
  for (const column of layout.columns) {
    let top = y;
    const columnWidth = column[0]?.rect.width ?? 0;
    for (const placed of column) {
      const lines = detailBlock(p, memo, placed.pane, placed.rect);
      blocks.push({ x, y: top, width: columnWidth, lines });
      top += lines.length;
    }
    tallest = Math.max(tallest, top - y);
    x += columnWidth;
  }
  return y + tallest;
}

/** The help or the open dialog, over the screen, or null. */
function overlayBlock(p: ScreenInput): Placed | null {
  const { ui } = p;
  if (ui.help && p.help) {
    const { box, body } = p.help;
    const lines = overlayLines(box, 'Keys', body, Math.min(ui.helpScroll, Math.max(0, body.length - box.bodyHeight)));
    return { x: box.left, y: box.top, width: box.width, lines, over: true };
  }
  if (!p.dialog || !p.dialogBox) return null;
  const dialog = p.dialog;
  const { box, text } = p.dialogBox;
  const scroll =
    dialog.kind === 'confirm' || dialog.kind === 'read'
      ? Math.min(dialog.scroll, Math.max(0, text.body.length - box.bodyHeight))
      : 0;
  return {
    x: box.left,
    y: box.top,
    width: box.width,
    lines: overlayLines(box, text.title, text.body, scroll),
    over: true,
  };
}
