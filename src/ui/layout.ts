/**
 * Where each pane goes for a terminal size. Wide terminals put the detail panes side by side under
 * the runs list; narrow ones show one detail pane at a time behind a tab bar. Pure.
 */
import type { Rect } from './geometry.js';
import type { DetailPane } from './panes/registry.js';
import { PANE_SPECS } from './panes/registry.js';

export type { Rect } from './geometry.js';

export interface PlacedPane {
  pane: DetailPane;
  rect: Rect;
}

export type Layout =
  | { kind: 'too-small'; width: number; height: number }
  | { kind: 'narrow'; width: number; height: number; runs: Rect; detail: Rect }
  | { kind: 'wide'; width: number; height: number; runs: Rect; columns: PlacedPane[][] };

/** Below this the screen only asks for more room. */
export const MIN_SIZE = { columns: 40, rows: 12 } as const;
/** From this size on, detail panes sit side by side. */
export const WIDE_SIZE = { columns: 120, rows: 30 } as const;

/** How many content lines each pane would like (without borders). */
export type Wants = Readonly<Record<DetailPane | 'runs', number>>;

/** One slot of a column: the least it needs, what it would like, whether it takes what is left. */
interface Slot {
  pane: DetailPane;
  min: number;
  want: number;
  grow: boolean;
}

/** Heights for slots sharing `total` lines: minimums first, then wants in order, the rest to growers. */
export function allocate(total: number, slots: readonly Omit<Slot, 'pane'>[]): number[] {
  const heights = slots.map((s) => s.min);
  let left = total - heights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < slots.length && left > 0; i++) {
    const s = slots[i];
    if (!s) continue;
    const add = Math.min(left, Math.max(0, s.want - (heights[i] ?? 0)));
    heights[i] = (heights[i] ?? 0) + add;
    left -= add;
  }
  const growers = slots.map((s, i) => (s.grow ? i : -1)).filter((i) => i >= 0);
  for (let k = 0; left > 0 && growers.length > 0; k++) {
    const i = growers[k % growers.length] ?? 0;
    heights[i] = (heights[i] ?? 0) + 1;
    left--;
  }
  return heights;
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/**
 * The layout for a terminal of `columns` × `rows`, given what each pane would like to show and the
 * panes there are to draw (the view's focusable ones: a pane with nothing to show has no slot).
 */
export function computeLayout(columns: number, rows: number, wants: Wants, drawn: readonly string[]): Layout {
  if (columns < MIN_SIZE.columns || rows < MIN_SIZE.rows) return { kind: 'too-small', width: columns, height: rows };
  const body = rows - 2; // header and footer
  const wide = columns >= WIDE_SIZE.columns && rows >= WIDE_SIZE.rows;
  // Runs list: border (2) + column header (1) + rows.
  const runsHeight = clamp(wants.runs + 3, 5, Math.max(5, Math.floor(body * (wide ? 0.35 : 0.4))));
  const runs = { width: columns, height: runsHeight };
  if (!wide)
    return {
      kind: 'narrow',
      width: columns,
      height: rows,
      runs,
      detail: { width: columns, height: body - runsHeight - 1 },
    };

  const rest = body - runsHeight;
  // The left column holds the task table, the widest content: it gets a little more.
  const leftWidth = Math.floor(columns * 0.55);
  const slots = (column: 0 | 1): Slot[] =>
    PANE_SPECS.filter((s) => s.slot.column === column && drawn.includes(s.id)).map((s) => ({
      pane: s.id,
      min: s.slot.min + 2,
      want: s.slot.ask(wants[s.id]) + 2,
      grow: s.slot.grow,
    }));
  const left = slots(0);
  const right = slots(1);
  const place = (slots: Slot[], width: number): PlacedPane[] => {
    const heights = allocate(rest, slots);
    return slots.map((s, i) => ({ pane: s.pane, rect: { width, height: heights[i] ?? 0 } }));
  };
  return {
    kind: 'wide',
    width: columns,
    height: rows,
    runs,
    columns: [place(left, leftWidth), place(right, columns - leftWidth)],
  };
}
