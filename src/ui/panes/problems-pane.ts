/** Warnings (stale handoff, stuck heartbeat, context over threshold) and problems with files. */
import path from 'node:path';
import type { Problem, Run } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { Segment } from '../text/segments.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

/** One row of the pane. */
interface Note {
  kind: 'warning' | 'problem';
  text: string;
}

function where(problem: Problem, root: string | null): string {
  if (!problem.file) return '';
  const rel = root && problem.file.startsWith(root + path.sep) ? path.relative(root, problem.file) : problem.file;
  return `${sanitizeLine(rel)}: `;
}

/** The notes of a run and of the snapshot itself (`problems`: the snapshot's own), warnings first. */
export function notes(run: Run | null, problems: readonly Problem[]): Note[] {
  const out: Note[] = [];
  for (const w of run?.warnings ?? []) out.push({ kind: 'warning', text: sanitizeLine(w) });
  for (const p of run?.problems ?? [])
    out.push({ kind: 'problem', text: `${where(p, run?.root ?? null)}${sanitizeLine(p.message)}` });
  for (const p of problems) out.push({ kind: 'problem', text: `tower: ${where(p, null)}${sanitizeLine(p.message)}` });
  return out;
}

/** What the problems pane draws. */
export interface ProblemsProps {
  run: Run | null;
  /** The snapshot's own problems (not of a run). */
  problems: readonly Problem[];
  /** The selected note's index. */
  cursor: number;
  focused: boolean;
  /** The content's rows, inside the frame (rows are cut to the width where they are placed). */
  height: number;
}

/** The problems pane's content lines. */
export function problemsLines({ run, problems, cursor, focused, height }: ProblemsProps): Segment[][] {
  const all = notes(run, problems);
  return listLines({
    top: [],
    count: all.length,
    cursor,
    focused,
    height,
    empty: 'no problems or warnings',
    row: (i, selected) => {
      const n = all[i];
      if (!n) return [];
      const tag =
        n.kind === 'warning'
          ? { text: '! warning ', tone: 'amber' as const }
          : { text: '✗ problem ', tone: 'red' as const };
      return [mark(selected), { text: ' ' }, tag, { text: n.text }];
    },
  });
}

/** The run's warnings and problems and the snapshot's own; there only while it has any. */
export const problemsPane: PaneSpec<'problems'> = {
  id: 'problems',
  title: ({ run, problems }) => `Problems · ${notes(run, problems).length}`,
  rows: ({ run, problems }) => (run ? run.problems.length + (run.warnings?.length ?? 0) : 0) + problems.length,
  wants: (d) => Math.max(1, problemsPane.rows(d)),
  topLines: 0,
  slot: { column: 0, min: 1, ask: (w) => Math.min(w, 6), grow: false },
  shown: (rows) => rows > 0,
  draw: (c) =>
    framed(
      problemsPane,
      c,
      c.memo.draw('problems', problemsLines, {
        run: c.run,
        problems: c.problems,
        cursor: c.cursor,
        focused: c.focused,
        height: c.rect.height - 2,
      }),
    ),
};
