/** The runs list's rows (pure): system, name, status, phase, pending gates and the context gauge, one run a row. */
import type { Run } from '../../model/model.js';
import { thousands } from '../../text/count.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { frameLines } from '../components/frame.js';
import type { Cell, ColumnSpec } from '../components/table.js';
import { fitColumns, headerRow, tableRow } from '../components/table.js';
import { gateCounts } from '../state/selectors.js';
import { GAUGE_WIDTH, gauge } from '../text/format.js';
import type { Segment } from '../text/segments.js';
import { highlight } from '../text/segments.js';
import { displayWidth, fit } from '../text/width.js';
import { activityWord, waitsForHuman } from './activity-words.js';
import { SYSTEM_BADGE, runStatusCell } from './words.js';

/** What the runs list draws. */
export interface RunsPaneProps {
  runs: readonly Run[];
  /** All runs before filtering (for the title). */
  total: number;
  selectedIndex: number;
  focused: boolean;
  filter: string;
  filtering: boolean;
  /** Context threshold for runs that name none. */
  contextThreshold: number;
  /** The pane's cells, its frame included. */
  width: number;
  height: number;
  /** Not null while the first snapshot is being read: what is read, with its size ('' when unknown). */
  reading?: string | null | undefined;
  /** Teams that ended, left out of the list (0: none, or they are listed), and the key that lists them. */
  folded?: number | undefined;
  foldKey?: string | undefined;
}

type Col = 'mark' | 'host' | 'system' | 'name' | 'status' | 'phase' | 'gates' | 'wait' | 'context' | 'note';

const COLUMNS: readonly ColumnSpec<Col>[] = [
  { key: 'mark', header: '', width: 1 },
  { key: 'system', header: 'SYSTEM', width: 8, drop: 3 },
  { key: 'name', header: 'RUN', width: 'flex', min: 14 },
  { key: 'status', header: 'STATUS', width: 8 },
  { key: 'phase', header: 'PHASE', width: 8, drop: 1 },
  { key: 'gates', header: 'GATES', width: 11 },
  { key: 'wait', header: 'WAIT', width: 4 },
  { key: 'context', header: 'CONTEXT', width: GAUGE_WIDTH, drop: 2 },
];

/** Shown only when some run lives on another box; never dropped, the host is part of who the run is. */
const HOST: ColumnSpec<Col> = { key: 'host', header: 'HOST', width: 8 };

const NAME_WIDE = 28;
/** The least the notes column keeps when the phase column grows into its space. */
const NOTE_MIN = 15;
const NOTE: ColumnSpec<Col> = { key: 'note', header: 'NEEDS', width: 'flex' };

/** Columns for a width; wide lists get a column saying what the run waits for. */
function runColumns(inner: number, runs: readonly Run[]): { spec: ColumnSpec<Col>; width: number }[] {
  const hosts = runs.some((r) => r.host);
  const all = hosts ? [COLUMNS[0] as ColumnSpec<Col>, HOST, ...COLUMNS.slice(1)] : COLUMNS;
  // The name keeps its longest label (28 at most); the rest says what each run needs, on narrow screens too:
  // what needs the operator outranks the phase and the gauge, which go (in their drop order) to make room.
  const nameWant = Math.min(NAME_WIDE, Math.max(14, ...runs.map((r) => displayWidth(runLabel(r)))));
  const fits = (c: { spec: ColumnSpec<Col>; width: number }[]) =>
    (c.find((x) => x.spec.key === 'name')?.width ?? 0) >= nameWant + 1 + NOTE_MIN;
  let cols = fitColumns(all, inner);
  for (const drop of [1, 2]) {
    if (fits(cols)) break;
    const fewer = fitColumns(
      all.filter((c) => c.drop === undefined || c.drop > drop),
      inner,
    );
    if (fits(fewer)) cols = fewer;
  }
  const at = cols.findIndex((c) => c.spec.key === 'name');
  const name = cols[at];
  if (!name || !fits(cols)) return cols;
  // The space past the name goes first to a phase that would be cut (`IMPLEMENTATION`), then to the notes.
  const phase = cols.find((c) => c.spec.key === 'phase');
  const phaseWant = Math.max(0, ...runs.map((r) => displayWidth(phaseText(r))));
  // Only the notes' blank room is given away: what the operator must act on is never cut for the phase.
  const noteWant = Math.max(NOTE_MIN, ...runs.map((r) => displayWidth(runNote(r).text)));
  const grow = phase ? Math.max(0, Math.min(phaseWant - phase.width, name.width - nameWant - 1 - noteWant)) : 0;
  const note = { spec: NOTE, width: name.width - nameWant - 1 - grow };
  return [
    ...cols.slice(0, at + 1).map((c) => (c === name ? { ...c, width: nameWant } : c)),
    ...cols.slice(at + 1).map((c) => (c === phase ? { ...c, width: c.width + grow } : c)),
    note,
  ];
}

/** What the run waits for, in one line: an escalation, a gate, a warning or a problem. */
export function runNote(run: Run): Cell {
  if (run.stale) return { text: `last known state: ${run.host ?? 'its host'} is unreachable`, tone: 'dim' };
  const pending = run.gates.filter((g) => g.state === 'pending');
  const esc = pending.find((g) => g.kind === 'escalation');
  if (esc) return { text: sanitizeLine(esc.title), tone: 'red' };
  // A question blocks its agent outright: it comes before a lead waiting at its prompt.
  const waiting =
    run.members.find((m) => waitsForHuman(m) && m.activityCue === 'question') ?? run.members.find(waitsForHuman);
  if (waiting) return { text: `${sanitizeLine(waiting.name)} ${activityWord(waiting)}`, tone: 'amber' };
  const first = pending[0];
  if (first) return { text: sanitizeLine(first.title), tone: 'amber' };
  const warning = run.warnings?.[0];
  if (warning) return { text: sanitizeLine(warning), tone: 'amber' };
  const problem = run.problems[0];
  if (problem) return { text: sanitizeLine(problem.message), tone: 'red' };
  return { text: run.phase ? sanitizeLine(run.phase.status) : '', tone: 'dim' };
}

/** The run's name as the list shows it: the id without its host and system prefix (keeps `#2` suffixes). */
export function runLabel(run: Run): string {
  const prefix = `${run.host ? `${run.host}/` : ''}${run.system}:`;
  return sanitizeLine(run.id.startsWith(prefix) ? run.id.slice(prefix.length) : run.id);
}

function phaseText(run: Run): string {
  if (!run.phase) return '';
  const cur = sanitizeLine(run.phase.current);
  return run.phase.total !== null ? `${cur}/${run.phase.total}` : cur;
}

function gatesText(run: Run): Cell[] {
  const { amber, red } = gateCounts(run);
  const out: Cell[] = [];
  if (amber > 0) out.push({ text: `CHK ${amber}`, tone: 'amber' });
  if (red > 0) out.push({ text: `ESC ${red}`, tone: 'red' });
  return out;
}

/** How many members wait for a human, or nothing. */
function waitCell(run: Run): Cell {
  const n = run.members.filter(waitsForHuman).length;
  return n > 0 ? { text: String(n), tone: 'amber' } : { text: '' };
}

/** The rows of the list, without the frame. */
export function runsLines(p: RunsPaneProps): Segment[][] {
  const inner = Math.max(0, p.width - 2);
  const cols = runColumns(inner, p.runs);
  const lines: Segment[][] = [];
  if (p.filtering || p.filter !== '') {
    const cursor = p.filtering ? '▏' : '';
    const help = p.filtering ? '  (Enter keeps it, Esc clears it)' : '  (Esc clears it)';
    lines.push([
      { text: 'filter: ', tone: 'accent' },
      { text: sanitizeLine(p.filter) + cursor, tone: 'title' },
      { text: help, tone: 'dim' },
    ]);
  } else {
    lines.push(headerRow(cols));
  }
  if (p.runs.length === 0 && p.reading != null && p.filter === '') {
    lines.push([{ text: `  reading state…${p.reading ? ` (${p.reading})` : ''}`, tone: 'dim' }]);
    return lines;
  }
  const folded = p.folded ?? 0;
  const foldLine: Segment[] = [
    {
      text:
        `  ⋯ ${thousands(folded)} ${folded === 1 ? 'team' : 'teams'} ended (files unchanged for ` +
        `two days, no pane alive); ${p.foldKey ?? 'E'} lists them`,
      tone: 'dim',
    },
  ];
  if (p.runs.length === 0) {
    lines.push(
      folded > 0
        ? foldLine
        : [
            {
              text:
                p.filter !== '' ? '  no run matches the filter' : '  no runs found (use --root DIR, or run tower demo)',
              tone: 'dim',
            },
          ],
    );
    return lines;
  }
  const { start, rows: rowsForRuns } = runsWindow(p);
  const gatesWidth = cols.find((c) => c.spec.key === 'gates')?.width ?? 0;
  for (const [i, run] of p.runs.slice(start, start + rowsForRuns).entries()) {
    const selected = start + i === p.selectedIndex;
    const g = run.context ? gauge(run.context.usedPct, run.context.threshold ?? p.contextThreshold) : null;
    const gates = gatesText(run);
    const row = tableRow(cols, {
      mark: { text: selected ? '>' : ' ', tone: 'accent' },
      host: { text: sanitizeLine(run.host ?? 'local'), tone: run.stale ? 'dim' : 'plain' },
      system: { text: SYSTEM_BADGE[run.system], tone: 'accent' },
      name: { text: runLabel(run), tone: 'title' },
      // A team that ended says so, whatever its files last said (a task left in progress by a crash).
      status: run.ended ? { text: 'ended', tone: 'dim' } : runStatusCell(run.status),
      phase: { text: phaseText(run) },
      wait: waitCell(run),
      context: g ? { text: g.text, tone: g.over ? 'amber' : 'plain' } : { text: '' },
      note: runNote(run),
    });
    // The gates column holds two differently coloured counts: splice them in place of the empty cell.
    const gatesAt = cols.findIndex((c) => c.spec.key === 'gates') * 2;
    if (gatesAt >= 0 && gates.length > 0) {
      let parts: Segment[] = gates.flatMap((c, k) => (k > 0 ? [{ text: ' ' }, c] : [c]));
      const used = parts.reduce((n, s) => n + s.text.length, 0);
      if (used > gatesWidth)
        parts = [
          {
            text: fit(parts.map((s) => s.text).join(''), gatesWidth),
            tone: gates.some((c) => c.tone === 'red') ? 'red' : 'amber',
          },
        ];
      else parts.push({ text: ' '.repeat(gatesWidth - used) });
      row.splice(gatesAt, 1, ...parts);
    }
    lines.push(selected && p.focused ? highlight(row) : row);
  }
  if (folded > 0) lines.push(foldLine);
  return lines;
}

/**
 * Which runs the pane shows: from `start`, `rows` of them. The list is ordered most urgent first, so
 * the window stays at the top while the cursor is in it and scrolls only as far as the cursor goes:
 * a cursor further down never pushes the runs that need the operator most off screen.
 */
function runsWindow(p: RunsPaneProps): { start: number; rows: number } {
  // One line for the header (or the filter), two for the frame.
  const height = Math.max(0, p.height - 3);
  // The fold line takes the last row when the list fills the pane.
  const rows = (p.folded ?? 0) > 0 ? Math.max(1, height - 1) : height;
  const start =
    p.runs.length <= rows || rows <= 0 ? 0 : Math.min(Math.max(0, p.selectedIndex - rows + 1), p.runs.length - rows);
  return { start, rows };
}

/** What a run off screen needs, in a word or two (the title counts them by these). */
function offScreenWord(run: Run): string {
  if (run.ended) return 'ended';
  if (run.gates.some((g) => g.state === 'pending' && g.kind === 'escalation')) return 'escalated';
  if (run.status === 'blocked') return 'blocked';
  if (run.members.some((m) => waitsForHuman(m) && m.activityCue === 'question')) return 'asking';
  if (run.gates.some((g) => g.state === 'pending')) return 'at a gate';
  if (run.members.some(waitsForHuman)) return 'waiting for you';
  return run.status;
}

const NEEDS_WORDS = ['escalated', 'blocked', 'asking', 'at a gate', 'waiting for you'];

/** Where a word of `offScreenWord` sorts: what needs the operator first, the statuses after. */
function wordRank(word: string): number {
  const at = NEEDS_WORDS.indexOf(word);
  return at >= 0 ? at : NEEDS_WORDS.length;
}

/** The runs outside the window, counted by what they need, most urgent first: `1 asking, 2 running off screen`. */
export function offScreenText(runs: readonly Run[], start: number, rows: number): string {
  const counts = new Map<string, number>();
  for (const part of [runs.slice(0, start), runs.slice(start + rows)])
    for (const run of part) {
      const word = offScreenWord(run);
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  if (counts.size === 0) return '';
  // What needs the operator first, in the order `offScreenWord` asks; then the rest as the list has them.
  const kinds = [...counts].sort(([a], [b]) => wordRank(a) - wordRank(b));
  const words = kinds.map(([word, n]) => `${n} ${word}`);
  // Three kinds at most keep the title short; the rest are counted as one.
  const rest = kinds.slice(3).reduce((a, [, n]) => a + n, 0);
  return `${words.slice(0, 3).join(', ')}${rest > 0 ? `, ${rest} more` : ''} off screen`;
}

/** The runs list pane as lines: its frame, titled with the count, around the rows. */
export function runsPaneLines(p: RunsPaneProps): Segment[][] {
  const { start, rows } = runsWindow(p);
  // A short terminal shows part of the list: the title says what the runs the cursor has to scroll to need.
  const hidden = offScreenText(p.runs, start, rows);
  const off = hidden ? ` · ${hidden}` : '';
  const count = (p.filter !== '' || (p.folded ?? 0) > 0 ? `${p.runs.length} of ${p.total}` : `${p.total}`) + off;
  return frameLines(`Runs · ${count}`, p.focused, { width: p.width, height: p.height }, runsLines(p));
}
