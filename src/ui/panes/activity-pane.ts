/** The activity pane: actions from the moment they are asked for, with live progress, newest first. */
import type { ActivityEntry } from '../../store/types.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { windowStart } from '../components/frame.js';
import { clock, timeOfDay } from '../text/format.js';
import type { Segment } from '../text/segments.js';
import { highlight, lineWidth } from '../text/segments.js';
import { displayWidth, sliceCells } from '../text/width.js';
import { activityStatusCell } from './words.js';
import type { PaneAct, PaneCommandContext, PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

/** The activity line under the cursor (the pane lists them newest first), opened whole. */
function readLine({ activity, cursor }: PaneCommandContext): PaneAct | null {
  const e = activity[activity.length - 1 - cursor];
  if (!e) return null;
  const head =
    `${e.time.slice(11, 19)} ${e.status} ` +
    `${e.action}${e.runId ? ` · ${e.runId}` : ''}${e.target ? ` · ${e.target}` : ''}`;
  const text = [head, '', e.message, ...(e.details ?? [])].join('\n');
  return { label: 'read line', dialog: { kind: 'read', title: `${e.action} ${e.status}`, text, scroll: 0 } };
}

/** `0:42 / 5:00 waiting for handoff`: the clock first, so a narrow pane cuts the words, not the time. */
export function progressText(p: NonNullable<ActivityEntry['progress']>): string {
  return `${clock(p.elapsedMs)} / ${clock(p.timeoutMs)} ${sanitizeLine(p.waitingFor)}`;
}

/** The lines of one entry: the entry itself, then its details indented. */
export function entryLines(e: ActivityEntry): Segment[][] {
  const status = activityStatusCell(e.status);
  // Status and progress first: on a narrow pane the end of the line is what gets cut.
  const head: Segment[] = [
    { text: timeOfDay(e.time), tone: 'dim' },
    { text: ' ' },
    { text: status.text, tone: status.tone },
    { text: ' ' },
    { text: sanitizeLine(e.action), tone: 'title' },
    { text: ' · ', tone: 'dim' },
    { text: sanitizeLine(e.message) },
    ...(e.runId ? [{ text: ` · ${sanitizeLine(e.runId)}`, tone: 'dim' as const }] : []),
    ...(e.target ? [{ text: ` → ${sanitizeLine(e.target)}`, tone: 'dim' as const }] : []),
  ];
  // Live progress gets a line of its own so a narrow pane never cuts it off.
  const progress: Segment[][] = e.progress
    ? [[{ text: '         ' }, { text: progressText(e.progress), tone: 'amber' }]]
    : [];
  return [
    head,
    ...progress,
    ...(e.details ?? []).map((d): Segment[] => [{ text: `         · ${sanitizeLine(d)}`, tone: 'dim' }]),
  ];
}

/** What the activity pane draws. */
export interface ActivityProps {
  entries: readonly ActivityEntry[];
  /** The selected entry, counted from the newest. */
  cursor: number;
  focused: boolean;
  /** The content's rows, inside the frame (rows are cut to the width where they are placed). */
  height: number;
  /** The content's cells across: a line longer than this goes on over a second row (unset: cut). */
  width?: number | undefined;
}

/** Rows of an entry's first line: three at most, so a wide pane shows most of a long message. */
const HEAD_ROWS = 3;
/** Where a line's continuation starts: under the action, past the time and the status. */
const INDENT = '         ';

/**
 * `line` over at most `rows` rows of `width` cells, breaking at a space where one is near; the
 * rows after the first start with `INDENT`. What still does not fit is left for the row's cut (…).
 */
export function wrapSegments(line: readonly Segment[], width: number, rows: number): Segment[][] {
  if (width <= INDENT.length + 10 || lineWidth(line) <= width) return [[...line]];
  const out: Segment[][] = [];
  let row: Segment[] = [];
  let room = width;
  const pending = [...line];
  while (pending.length > 0) {
    const s = pending.shift() as Segment;
    const w = displayWidth(s.text);
    if (w <= room || out.length === rows - 1) {
      row.push(s);
      room -= w;
      continue;
    }
    let head = sliceCells(s.text, room);
    // Break at the last space of what fits, unless that leaves most of the row empty.
    const space = head.lastIndexOf(' ');
    if (space > head.length / 2) head = head.slice(0, space + 1);
    row.push({ ...s, text: head });
    out.push(row);
    row = [{ text: INDENT }];
    room = width - INDENT.length;
    pending.unshift({ ...s, text: s.text.slice(head.length).trimStart() });
  }
  out.push(row);
  return out;
}

/** The activity pane's content lines. */
export function activityLines({ entries, cursor, focused, height, width }: ActivityProps): Segment[][] {
  if (entries.length === 0)
    return [[{ text: '  no actions yet: keys like c, g, X act on the selected run', tone: 'dim' }]];
  const newestFirst = [...entries].reverse();
  const lines: Segment[][] = [];
  let cursorLine = 0;
  newestFirst.forEach((e, i) => {
    // The first line is drawn after a one-cell mark: it wraps within what is left of the width.
    const [head = [], ...rest] = entryLines(e);
    const block = [...(width === undefined ? [head] : wrapSegments(head, width - 1, HEAD_ROWS)), ...rest];
    if (i === cursor) cursorLine = lines.length;
    block.forEach((l, k) =>
      lines.push(
        focused && i === cursor && k === 0 ? highlight([{ text: '>', tone: 'accent' }, ...l]) : [{ text: ' ' }, ...l],
      ),
    );
  });
  const start = windowStart(lines.length, cursorLine, height);
  return lines.slice(start, start + height);
}

/** What tower did: each action, its progress and outcome, newest first. */
export const activityPane: PaneSpec<'activity'> = {
  id: 'activity',
  title: ({ activity }) => `Activity · ${activity.length}`,
  rows: ({ activity }) => activity.length,
  wants: ({ activity }) => Math.max(1, activity.length),
  topLines: 0,
  // An entry with its details is a few lines: up to a dozen lines.
  slot: { column: 1, min: 3, ask: (w) => Math.min(w * 5, 12), grow: false },
  // v and Enter open the line under the cursor: never a pane attached behind the operator's back.
  commands: { read: readLine, attach: readLine },
  draw: (c) =>
    framed(
      activityPane,
      c,
      c.memo.draw('activity', activityLines, {
        entries: c.activity,
        cursor: c.cursor,
        focused: c.focused,
        height: c.rect.height - 2,
        width: c.rect.width - 2,
      }),
    ),
};
