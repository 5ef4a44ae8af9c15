/** Review tracking: one row per task and kind of review, with its verdict and reviewer. */
import type { Run } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { ColumnSpec } from '../components/table.js';
import { fitColumns, headerRow, tableRow } from '../components/table.js';
import type { Segment } from '../text/segments.js';
import { verdictCell } from './words.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

type Col = 'mark' | 'task' | 'kind' | 'verdict' | 'reviewer';

const COLUMNS: readonly ColumnSpec<Col>[] = [
  { key: 'mark', header: '', width: 1 },
  { key: 'task', header: 'TASK', width: 8 },
  { key: 'kind', header: 'KIND', width: 'flex', min: 12 },
  { key: 'verdict', header: 'VERDICT', width: 10 },
  { key: 'reviewer', header: 'REVIEWER', width: 14, drop: 1 },
];

/** What the reviews pane draws. */
export interface ReviewsProps {
  run: Run | null;
  /** The selected review's index. */
  cursor: number;
  focused: boolean;
  /** The content's cells, inside the frame. */
  width: number;
  height: number;
}

/** The reviews pane's content lines. */
export function reviewsLines({ run, cursor, focused, width, height }: ReviewsProps): Segment[][] {
  const cols = fitColumns(COLUMNS, width);
  const reviews = run?.reviews ?? [];
  return listLines({
    top: reviews.length > 0 ? [headerRow(cols)] : [],
    count: reviews.length,
    cursor,
    focused,
    height,
    empty: run ? 'no reviews recorded' : 'no run selected',
    row: (i, selected) => {
      const r = reviews[i];
      if (!r) return [];
      return tableRow(cols, {
        mark: mark(selected),
        task: { text: sanitizeLine(r.taskId) },
        kind: { text: sanitizeLine(r.kind) },
        verdict: verdictCell(r.verdict),
        reviewer: { text: r.reviewer ? sanitizeLine(r.reviewer) : '-', tone: 'dim' },
      });
    },
  });
}

/** Review verdicts; a few lines, then it scrolls. */
export const reviewsPane: PaneSpec<'reviews'> = {
  id: 'reviews',
  title: ({ run }) => `Reviews · ${run?.reviews.length ?? 0}`,
  rows: ({ run }) => run?.reviews.length ?? 0,
  wants: ({ run }) => Math.max(1, (run?.reviews.length ?? 0) + 1),
  topLines: 1,
  slot: { column: 1, min: 2, ask: (w) => Math.min(w, 6), grow: false },
  draw: (c) =>
    framed(
      reviewsPane,
      c,
      c.memo.draw('reviews', reviewsLines, {
        run: c.run,
        cursor: c.cursor,
        focused: c.focused,
        width: c.rect.width - 2,
        height: c.rect.height - 2,
      }),
    ),
};
