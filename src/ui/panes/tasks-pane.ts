/** The task table: counts per status, then id, subject, status, owner, blocked-by. */
import type { Run } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { ColumnSpec } from '../components/table.js';
import { fitColumns, headerRow, tableRow } from '../components/table.js';
import type { Segment } from '../text/segments.js';
import { fitLine } from '../text/segments.js';
import { taskCounts } from '../state/selectors.js';
import { taskStatusTone } from './words.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

type Col = 'mark' | 'id' | 'subject' | 'status' | 'owner' | 'blocked';

const COLUMNS: readonly ColumnSpec<Col>[] = [
  { key: 'mark', header: '', width: 1 },
  { key: 'id', header: 'ID', width: 5 },
  { key: 'subject', header: 'SUBJECT', width: 'flex', min: 14 },
  { key: 'status', header: 'STATUS', width: 11 },
  { key: 'owner', header: 'OWNER', width: 10, drop: 2 },
  { key: 'blocked', header: 'BLOCKED', width: 8, drop: 1 },
];

/** The summary line: `12 tasks  5 completed · 2 in_progress · 5 pending`. */
export function taskSummary(counts: readonly [string, number][], total: number, width: number): Segment[] {
  const parts: Segment[] = [{ text: `  ${total} task${total === 1 ? '' : 's'}`, tone: 'title' }];
  counts.forEach(([status, n], i) => {
    parts.push(
      { text: i === 0 ? '  ' : ' · ', tone: 'dim' },
      { text: `${n} ${sanitizeLine(status)}`, tone: taskStatusTone(status) },
    );
  });
  return fitLine(parts, width);
}

/** Facts about a run's tasks computed once per run object: counts per status, the widest id. */
export interface TaskStats {
  counts: readonly [string, number][];
  idWidth: number;
}

/** Counts per status and the id column's width (ids are short numbers, or names like `task-12`). */
export function taskStats({ run }: { run: Run | null }): TaskStats {
  let idWidth = 2;
  for (const t of run?.tasks ?? []) idWidth = Math.max(idWidth, t.id.length);
  return { counts: run ? taskCounts(run) : [], idWidth: Math.min(12, idWidth) };
}

/** What the tasks pane draws. */
export interface TasksProps {
  run: Run | null;
  /** The run's task stats, worked out once per run object (counting 10,000 tasks on every keypress would be wasted). */
  stats: TaskStats;
  /** The selected task's index. */
  cursor: number;
  focused: boolean;
  /** The content's cells, inside the frame. */
  width: number;
  height: number;
}

/** The tasks pane's content lines. */
export function tasksLines({ run, stats, cursor, focused, width, height }: TasksProps): Segment[][] {
  const cols = fitColumns(
    COLUMNS.map((c) => (c.key === 'id' ? { ...c, width: stats.idWidth } : c)),
    width,
  );
  const counts = stats.counts;
  const tasks = run?.tasks ?? [];
  return listLines({
    top: tasks.length > 0 ? [taskSummary(counts, tasks.length, width), headerRow(cols)] : [],
    count: tasks.length,
    cursor,
    focused,
    height,
    empty: run ? 'no tasks' : 'no run selected',
    row: (i, selected) => {
      const t = tasks[i];
      if (!t) return [];
      return tableRow(cols, {
        mark: mark(selected),
        id: { text: sanitizeLine(t.id), tone: 'dim' },
        subject: { text: sanitizeLine(t.subject) },
        status: { text: sanitizeLine(t.status), tone: taskStatusTone(t.status) },
        owner: { text: t.owner ? sanitizeLine(t.owner) : '-', tone: t.owner ? 'plain' : 'dim' },
        blocked: { text: t.blockedBy.map(sanitizeLine).join(','), tone: t.blockedBy.length > 0 ? 'amber' : 'plain' },
      });
    },
  });
}

/** The task table, with a summary of its statuses above it. */
export const tasksPane: PaneSpec<'tasks'> = {
  id: 'tasks',
  title: ({ run }) => `Tasks · ${run?.tasks.length ?? 0}`,
  rows: ({ run }) => run?.tasks.length ?? 0,
  wants: ({ run }) => Math.max(1, (run?.tasks.length ?? 0) + 2),
  topLines: 2,
  slot: { column: 0, min: 3, ask: (w) => w, grow: true },
  draw: (c) => {
    const stats = c.memo.draw('tasks:stats', taskStats, { run: c.run });
    const content = c.memo.draw('tasks', tasksLines, {
      run: c.run,
      stats,
      cursor: c.cursor,
      focused: c.focused,
      width: c.rect.width - 2,
      height: c.rect.height - 2,
    });
    return framed(tasksPane, c, content);
  },
};
