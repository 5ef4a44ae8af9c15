/**
 * Table rows for the panes: fixed-width columns plus one flexible column that takes what is left.
 * When the pane is too narrow, columns with a drop rank go first (lowest rank first). Pure.
 */
import type { Tone } from '../theme.js';
import type { Segment } from '../text/segments.js';
import { fit } from '../text/width.js';

/** A column: a fixed width, or `flex` for the one that takes the rest. */
export interface ColumnSpec<K extends string> {
  key: K;
  header: string;
  width: number | 'flex';
  /** The least a flex column may shrink to before other columns are dropped. */
  min?: number;
  align?: 'left' | 'right';
  /** Dropped when space runs out, lowest first; absent = never dropped. */
  drop?: number;
}

/**
 * The columns that fit in `total` cells, with their widths. With `content` (each column's widest cell),
 * the flex column's room past its own content goes first to fixed columns whose content is cut, so a
 * wide screen shows `claude-opus-4-5` rather than `claude-opus…` beside a blank name column.
 */
export function fitColumns<K extends string>(
  specs: readonly ColumnSpec<K>[],
  total: number,
  gap = 1,
  content?: Partial<Record<K, number>>,
): { spec: ColumnSpec<K>; width: number }[] {
  let kept = [...specs];
  const flexMin = specs.find((s) => s.width === 'flex')?.min ?? 8;
  const fixedWidth = (cols: ColumnSpec<K>[]) =>
    cols.reduce((n, s) => n + (s.width === 'flex' ? 0 : s.width), 0) + gap * Math.max(0, cols.length - 1);
  const droppable = specs.filter((s) => s.drop !== undefined).sort((a, b) => (a.drop ?? 0) - (b.drop ?? 0));
  for (const d of droppable) {
    if (total - fixedWidth(kept) >= flexMin) break;
    kept = kept.filter((s) => s !== d);
  }
  let flex = Math.max(0, total - fixedWidth(kept));
  const grown = new Map<ColumnSpec<K>, number>();
  const flexSpec = kept.find((s) => s.width === 'flex');
  if (content && flexSpec) {
    // Down to the flex column's own content (its header at least): past that it is only blank.
    let spare = flex - Math.max(flexSpec.header.length, content[flexSpec.key] ?? flex);
    for (const spec of kept) {
      if (spare <= 0) break;
      if (spec.width === 'flex') continue;
      const grow = Math.min(spare, Math.max(0, (content[spec.key] ?? 0) - spec.width));
      if (grow === 0) continue;
      grown.set(spec, grow);
      spare -= grow;
      flex -= grow;
    }
  }
  return kept.map((spec) => ({
    spec,
    width: spec.width === 'flex' ? flex : Math.max(0, Math.min(spec.width + (grown.get(spec) ?? 0), total)),
  }));
}

/** A cell: its text and tone. */
export interface Cell {
  text: string;
  tone?: Tone | undefined;
}

/** One table row as segments: each cell fitted to its column, separated by `gap` spaces. */
export function tableRow<K extends string>(
  cols: readonly { spec: ColumnSpec<K>; width: number }[],
  cells: Partial<Record<K, Cell>>,
  gap = 1,
): Segment[] {
  const out: Segment[] = [];
  cols.forEach((c, i) => {
    if (i > 0 && gap > 0) out.push({ text: ' '.repeat(gap) });
    const cell = cells[c.spec.key];
    out.push({ text: fit(cell?.text ?? '', c.width, c.spec.align ?? 'left'), tone: cell?.tone });
  });
  return out;
}

/** The header row (dim). */
export function headerRow<K extends string>(
  cols: readonly { spec: ColumnSpec<K>; width: number }[],
  gap = 1,
): Segment[] {
  return tableRow(
    cols,
    Object.fromEntries(cols.map((c) => [c.spec.key, { text: c.spec.header, tone: 'dim' as const }])) as Partial<
      Record<K, Cell>
    >,
    gap,
  );
}
