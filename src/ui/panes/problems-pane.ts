/** Warnings (stale handoff, stuck heartbeat, context over threshold) and problems with files. */
import path from 'node:path';
import type { Problem, Run, Snapshot } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { Segment } from '../text/segments.js';

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

/** The notes of a run and of the snapshot itself, warnings first. */
export function notes(run: Run | null, snapshot: Snapshot): Note[] {
  const out: Note[] = [];
  for (const w of run?.warnings ?? []) out.push({ kind: 'warning', text: sanitizeLine(w) });
  for (const p of run?.problems ?? [])
    out.push({ kind: 'problem', text: `${where(p, run?.root ?? null)}${sanitizeLine(p.message)}` });
  for (const p of snapshot.problems)
    out.push({ kind: 'problem', text: `tower: ${where(p, null)}${sanitizeLine(p.message)}` });
  return out;
}

/** The problems pane's content lines. */
export function problemsLines(
  run: Run | null,
  snapshot: Snapshot,
  cursor: number,
  focused: boolean,
  width: number,
  height: number,
): Segment[][] {
  const all = notes(run, snapshot);
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
