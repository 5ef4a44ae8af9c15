/**
 * Gates: checkpoints and approvals amber, escalations red, context amber, granted dim, each with
 * how long it has waited; below the list, the selected gate's body so it can be read before granting.
 */
import type { Run } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { ColumnSpec } from '../components/table.js';
import { fitColumns, tableRow } from '../components/table.js';
import { age } from '../text/format.js';
import type { Segment } from '../text/segments.js';
import { gateBody } from '../text/gate-body.js';
import { gateTagCell } from './words.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

type Col = 'mark' | 'tag' | 'id' | 'title' | 'state' | 'age';

const COLUMNS: readonly ColumnSpec<Col>[] = [
  { key: 'mark', header: '', width: 1 },
  { key: 'tag', header: '', width: 5 },
  { key: 'id', header: 'GATE', width: 14 },
  { key: 'title', header: 'TITLE', width: 'flex', min: 10 },
  { key: 'state', header: 'STATE', width: 8 },
  { key: 'age', header: 'WAITING', width: 4, align: 'right' },
];

/** What the gates pane draws. */
export interface GatesProps {
  run: Run | null;
  /** The selected gate's index. */
  cursor: number;
  focused: boolean;
  /** The content's cells, inside the frame. */
  width: number;
  height: number;
  /** Now, as the gates' ages are counted (see gatesResolution). */
  now: number;
}

/** The gates pane's content lines. */
export function gatesLines({ run, cursor, focused, width, height, now }: GatesProps): Segment[][] {
  const gates = run?.gates ?? [];
  const cols = fitColumns(COLUMNS, width);
  const selected = gates[cursor];
  // The list gets what it needs up to half the pane; the body of the selected gate takes the rest.
  const listHeight = selected ? Math.min(gates.length, Math.max(1, Math.floor(height / 2))) : height;
  const list = listLines({
    top: [],
    count: gates.length,
    cursor,
    focused,
    height: listHeight,
    empty: run ? 'no gates: nothing waits for a human' : 'no run selected',
    row: (i, isCursor) => {
      const g = gates[i];
      if (!g) return [];
      const pending = g.state === 'pending';
      return tableRow(cols, {
        mark: mark(isCursor),
        tag: gateTagCell(g),
        id: { text: sanitizeLine(g.id), tone: pending ? 'title' : 'dim' },
        title: { text: sanitizeLine(g.title), tone: pending ? 'plain' : 'dim' },
        state: { text: g.state, tone: pending ? (g.kind === 'escalation' ? 'red' : 'amber') : 'dim' },
        age: { text: g.since ? age(g.since, now) : '', tone: 'dim' },
      });
    },
  });
  if (!selected || height - list.length < 2) return list;
  const rule: Segment[] = [{ text: '─'.repeat(width), tone: 'dim' }];
  const body = gateBody(selected, width).slice(0, height - list.length - 1);
  return [...list, rule, ...body.map((text, i): Segment[] => [{ text, tone: i === 0 ? 'title' : 'plain' }])];
}

/** Gates and escalations, pending first, with the selected gate's body under the list. */
export const gatesPane: PaneSpec<'gates'> = {
  id: 'gates',
  title: ({ run }) => `Gates · ${run?.gates.filter((g) => g.state === 'pending').length ?? 0} pending`,
  rows: ({ run }) => run?.gates.length ?? 0,
  wants: ({ run, gate }) => {
    const body = gate ? Math.min(8, 2 + (gate.body?.split('\n').length ?? 0)) : 0;
    return Math.max(1, (run?.gates.length ?? 0) + (body > 0 ? body + 1 : 0));
  },
  topLines: 0,
  slot: { column: 1, min: 3, ask: (w) => w, grow: false },
  commands: {
    // The selected gate's whole text, to read before granting.
    read: ({ run, cursor }) => {
      const g = run?.gates[cursor];
      if (!g) return null;
      const text = gateBody(g, Number.MAX_SAFE_INTEGER).join('\n');
      return { label: 'read gate', dialog: { kind: 'read', title: `${g.kind} ${g.id}`, text, scroll: 0 } };
    },
  },
  draw: (c) =>
    framed(
      gatesPane,
      c,
      c.memo.draw('gates', gatesLines, {
        run: c.run,
        cursor: c.cursor,
        focused: c.focused,
        width: c.rect.width - 2,
        height: c.rect.height - 2,
        now: c.gatesNow,
      }),
    ),
};
