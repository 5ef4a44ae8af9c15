/** A scrolling list inside a pane: fixed lines on top, then a window of rows around the cursor. Pure. */
import type { Segment } from '../text/segments.js';
import { highlight } from '../text/segments.js';
import { windowStart } from './frame.js';

/** What a list pane draws. */
export interface ListSpec {
  /** Lines above the rows (summary, column header). */
  top: Segment[][];
  count: number;
  cursor: number;
  /** Whether the cursor row is marked (the pane has focus). */
  focused: boolean;
  /** Content lines available (frame excluded). */
  height: number;
  /** Row `i`, given whether it is the cursor row; only rows in the window are built. */
  row: (i: number, selected: boolean) => Segment[];
  /** The line shown when there are no rows. */
  empty: string;
}

/** The lines of a list pane. With 10,000 rows only the visible ones are built. */
export function listLines(spec: ListSpec): Segment[][] {
  const lines = [...spec.top];
  if (spec.count === 0) return [...lines, [{ text: `  ${spec.empty}`, tone: 'dim' }]];
  const rows = Math.max(0, spec.height - lines.length);
  const start = windowStart(spec.count, spec.cursor, rows);
  const end = Math.min(spec.count, start + rows);
  for (let i = start; i < end; i++) {
    const selected = spec.focused && i === spec.cursor;
    const row = spec.row(i, selected);
    lines.push(selected ? highlight(row) : row);
  }
  return lines;
}

/** The cursor marker column: `>` on the selected row. */
export function mark(selected: boolean): { text: string; tone: 'accent' } {
  return { text: selected ? '>' : ' ', tone: 'accent' };
}
