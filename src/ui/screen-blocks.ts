/**
 * The whole screen for one state as placed blocks of styled segments: header, runs list, the
 * detail panes (side by side or behind tabs), footer, and a dialog or the help over them. Pure,
 * without React: the live screen and the launcher's opening frame draw with it alike.
 *
 * Each block is worked out again only when what it is drawn from changed (`ScreenMemo`): a task
 * rewritten in one run rebuilds the runs list rows and that run's panes, and leaves every other
 * line (and its styled text, see frame-compose.ts) as it was.
 */
import type { Member, Run, Snapshot } from '../model/model.js';
import type { PaneLook } from '../store/captures.js';
import type { ActivityEntry } from '../store/types.js';
import type { Bindings } from '../keys/keymap.js';
import { keyLabel } from '../keys/key-name.js';
import { footerLine, headerLine, tabBarLine } from './components/chrome.js';
import { dialogText } from './components/dialog-lines.js';
import { frameLines, framedPane } from './components/frame.js';
import { helpLines } from './components/help-lines.js';
import type { OverlayBox } from './components/overlay.js';
import { overlayBox } from './components/overlay.js';
import type { Layout, Rect } from './layout.js';
import { MIN_SIZE } from './layout.js';
import { activityLines } from './panes/activity-pane.js';
import { gatesLines } from './panes/gates-pane.js';
import { paneTitle } from './panes/pane-title.js';
import { captureLines, previewFrame } from './panes/preview-lines.js';
import { problemsLines } from './panes/problems-pane.js';
import { reviewsLines } from './panes/reviews-pane.js';
import { runsPaneLines } from './panes/runs-lines.js';
import { taskStats, tasksLines } from './panes/tasks-pane.js';
import { teamLines } from './panes/team-pane.js';
import type { Hint } from './state/available.js';
import type { Dialog } from './state/dialog-state.js';
import { previewMember } from './state/selectors.js';
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

/**
 * Keeps what each part of the screen was last drawn from and the lines it gave. A part is a pane
 * function of one props object: it is drawn again only when some field of that object is another
 * value (Object.is), so what a pane reads is what it is kept on, and nothing it reads goes stale.
 */
export class ScreenMemo {
  private slots = new Map<string, { pane: unknown; props: object; value: unknown }>();

  /** `pane(props)`, or what it gave last time under `key` when `props` has the same fields. */
  draw<P extends object, T>(key: string, pane: (props: P) => T, props: P): T {
    const slot = this.slots.get(key);
    if (slot && slot.pane === pane && sameFields(slot.props, props)) return slot.value as T;
    const value = pane(props);
    this.slots.set(key, { pane, props, value });
    return value;
  }
}

/** Whether two props objects have the same fields holding the same values. */
function sameFields(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.is(x[k], y[k]) || !Object.hasOwn(y, k)) return false;
  return true;
}

/** A pane's title, kept on what it counts. */
function titleOf(p: ScreenInput, memo: ScreenMemo, pane: DetailPane, run: Run | null): string {
  return memo.draw(`${pane}:title`, paneTitle, { pane, run, problems: p.snapshot.problems, activity: p.activity });
}

function detailBlock(p: ScreenInput, memo: ScreenMemo, pane: DetailPane, rect: Rect): readonly (readonly Segment[])[] {
  const run = p.view.run;
  const focused = p.ui.focus === pane && !p.ui.filtering;
  const cursor = p.view.cursors[pane];
  const width = rect.width - 2;
  const height = rect.height - 2;
  // One slot per pane, whatever its size: a resize replaces it rather than adding one.
  if (pane === 'preview') {
    const member = previewMember(run, p.view.member, p.ui.focus);
    // A pane of another box is what that box streams of it, never a pane of this one's server.
    const look = member ? p.look?.(member, run) : undefined;
    const hostNote = run?.host ? (p.previewNote?.(run) ?? null) : null;
    const lines = memo.draw('preview:text', captureLines, { text: look?.text ?? null, color: p.color });
    return memo.draw('preview', previewFrame, {
      member,
      hasRun: run !== null,
      host: run?.host ?? null,
      hostNote,
      look,
      lines,
      focused,
      scroll: cursor,
      width: rect.width,
      height: rect.height,
    });
  }
  let content: Segment[][];
  if (pane === 'gates')
    content = memo.draw('gates', gatesLines, { run, cursor, focused, width, height, now: p.gatesNow });
  else if (pane === 'tasks') {
    const stats = memo.draw('tasks:stats', taskStats, { run });
    content = memo.draw('tasks', tasksLines, { run, stats, cursor, focused, width, height });
  } else if (pane === 'team')
    content = memo.draw('team', teamLines, {
      run,
      cursor,
      focused,
      width,
      height,
      now: p.teamNow,
      threshold: p.contextThreshold,
    });
  else if (pane === 'reviews') content = memo.draw('reviews', reviewsLines, { run, cursor, focused, width, height });
  else if (pane === 'problems')
    content = memo.draw('problems', problemsLines, { run, problems: p.snapshot.problems, cursor, focused, height });
  else content = memo.draw('activity', activityLines, { entries: p.activity, cursor, focused, height });
  const title = titleOf(p, memo, pane, run);
  return memo.draw(`${pane}:frame`, framedPane, {
    title,
    focused,
    width: rect.width,
    height: rect.height,
    content,
  });
}

/** The screen as blocks on a grid `layout.height` rows tall. */
export function screenBlocks(
  p: ScreenInput,
  memo: ScreenMemo = new ScreenMemo(),
): { blocks: Placed[]; height: number } {
  const { layout } = p;
  const width = layout.width;
  if (layout.kind === 'too-small') {
    const msg = `tower needs at least ${MIN_SIZE.columns}×${MIN_SIZE.rows}; this terminal is ${layout.width}×${layout.height}`;
    const lines = wrapText(msg, width)
      .slice(0, Math.max(1, layout.height))
      .map((l) => fitLine([{ text: l, tone: 'amber' }], width));
    return { blocks: [{ x: 0, y: 0, width, lines }], height: Math.max(lines.length, layout.height) };
  }
  const { snapshot, ui, view } = p;
  const header = memo.draw('header', headerLine, {
    snapshot,
    width,
    readonly: p.readonly,
    loading: p.loading,
    muted: p.muted ?? false,
  });
  const rect = layout.runs;
  const reading = p.loading ? (p.reading ?? '') : null;
  const folded = ui.filter === '' && !ui.showEnded ? snapshot.runs.length - view.runs.length : 0;
  const foldKey = keyLabel(p.bindings.keys.ended[0] ?? 'E');
  const focused = ui.focus === 'runs' || ui.filtering;
  const runs = memo.draw('runs', runsPaneLines, {
    runs: view.runs,
    total: snapshot.runs.length,
    selectedIndex: view.runIndex,
    focused,
    filter: ui.filter,
    filtering: ui.filtering,
    contextThreshold: p.contextThreshold,
    width: rect.width,
    height: rect.height,
    reading,
    folded,
    foldKey,
  });
  const blocks: Placed[] = [
    { x: 0, y: 0, width, lines: [header] },
    { x: 0, y: 1, width: rect.width, lines: runs },
  ];
  let y = 1 + runs.length;
  if (layout.kind === 'narrow') {
    const tabs = DETAIL_PANES.filter((d) => view.focusable.includes(d)).map((d) => ({
      pane: d,
      label: titleOf(p, memo, d, view.run).replace(' · ', ' '),
    }));
    const shown = ui.focus === 'runs' ? ui.tab : ui.focus;
    blocks.push({ x: 0, y, width, lines: [tabBarLine(tabs, shown, ui.focus !== 'runs', width)] });
    const detail = detailBlock(p, memo, shown, layout.detail);
    blocks.push({ x: 0, y: y + 1, width: layout.detail.width, lines: detail });
    y += 1 + detail.length;
  } else {
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
    y += tallest;
  }
  blocks.push({ x: 0, y, width, lines: [footerLine(p.hints, p.bindings, width)] });
  if (ui.help && p.help) {
    const { box, body } = p.help;
    const lines = overlayLines(box, 'Keys', body, Math.min(ui.helpScroll, Math.max(0, body.length - box.bodyHeight)));
    blocks.push({ x: box.left, y: box.top, width: box.width, lines, over: true });
  } else if (p.dialog && p.dialogBox) {
    const dialog = p.dialog;
    const { box, text } = p.dialogBox;
    const scroll =
      dialog.kind === 'confirm' || dialog.kind === 'read'
        ? Math.min(dialog.scroll, Math.max(0, text.body.length - box.bodyHeight))
        : 0;
    blocks.push({
      x: box.left,
      y: box.top,
      width: box.width,
      lines: overlayLines(box, text.title, text.body, scroll),
      over: true,
    });
  }
  return { blocks, height: layout.height };
}
