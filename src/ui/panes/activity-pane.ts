/** The activity pane: actions from the moment they are asked for, with live progress, newest first. */
import type { ActivityEntry } from '../../store/types.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { windowStart } from '../components/frame.js';
import { clock, timeOfDay } from '../text/format.js';
import type { Segment } from '../text/segments.js';
import { highlight } from '../text/segments.js';
import { activityStatusCell } from './words.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

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
}

/** The activity pane's content lines. */
export function activityLines({ entries, cursor, focused, height }: ActivityProps): Segment[][] {
  if (entries.length === 0)
    return [[{ text: '  no actions yet: keys like c, g, X act on the selected run', tone: 'dim' }]];
  const newestFirst = [...entries].reverse();
  const lines: Segment[][] = [];
  let cursorLine = 0;
  newestFirst.forEach((e, i) => {
    const block = entryLines(e);
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
  draw: (c) =>
    framed(
      activityPane,
      c,
      c.memo.draw('activity', activityLines, {
        entries: c.activity,
        cursor: c.cursor,
        focused: c.focused,
        height: c.rect.height - 2,
      }),
    ),
};
