/**
 * The team: name, role, model, the agent CLI it runs, pane id, whether the pane is alive, how full its context is and what it
 * is doing; the lead is starred.
 */
import type { DeniedByRule } from '../session-state.js';
import type { Member, Run } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { listLines, mark } from '../components/list.js';
import type { ColumnSpec } from '../components/table.js';
import { fitColumns, headerRow, tableRow } from '../components/table.js';
import type { Cell } from '../components/table.js';
import type { Segment } from '../text/segments.js';
import { displayWidth } from '../text/width.js';
import { activityCell } from './activity-words.js';
import { agentCell, memberStateCell } from './words.js';
import type { PaneSpec } from './pane-spec.js';
import { framed } from './pane-spec.js';

type Col = 'mark' | 'lead' | 'name' | 'team' | 'role' | 'model' | 'cli' | 'pane' | 'state' | 'context' | 'doing';

const COLUMNS: readonly ColumnSpec<Col>[] = [
  { key: 'mark', header: '', width: 1 },
  { key: 'lead', header: '', width: 1 },
  { key: 'name', header: 'NAME', width: 'flex', min: 12 },
  { key: 'team', header: 'TEAM', width: 13, drop: 3 },
  { key: 'role', header: 'ROLE', width: 16, drop: 2 },
  { key: 'model', header: 'MODEL', width: 12, drop: 1 },
  // The agent CLI the member's pane runs (`cc` Claude Code, `cx` Codex, `oc` opencode, `gm` Gemini
  // CLI, `?` one tower does not know); kept past the role and the model.
  { key: 'cli', header: 'CLI', width: 3, drop: 3.5 },
  { key: 'pane', header: 'PANE', width: 5 },
  // `? not its pane`, the longest state, in full.
  { key: 'state', header: 'STATE', width: 14 },
  // `100%!` at most; kept past the team, role and model columns (it is what the gauge of the run sums up).
  { key: 'context', header: 'CTX', width: 5, drop: 4 },
  { key: 'doing', header: 'DOING', width: 16 },
];

/** How full a member's context is, `72%`, amber with `!` at or past the threshold; empty when unknown. */
export function contextCell(m: Member, threshold: number | null): Cell {
  const used = m.context?.usedPct;
  if (used === undefined || !Number.isFinite(used)) return { text: '' };
  const pct = Math.max(0, Math.min(100, Math.round(used)));
  const over = threshold !== null && pct >= threshold;
  return { text: `${pct}%${over ? '!' : ''}`, tone: over ? 'amber' : 'plain' };
}

/** What the team pane draws. */
export interface TeamProps {
  run: Run | null;
  /** The selected member's index. */
  cursor: number;
  focused: boolean;
  /** The content's cells, inside the frame. */
  width: number;
  height: number;
  /** Now, as the members' times in their state are counted. */
  now: number;
  /** The context threshold of runs that name none (config contextThresholdPct); a run's own threshold wins. */
  threshold: number | null;
  /** Members whose request a rule denied (`<run id>/<member>`): the rule and when. */
  denied?: ReadonlyMap<string, DeniedByRule> | undefined;
}

/** How long a member shows the request a rule denied (unless it asks something again). */
const DENIED_SHOWN_MS = 10 * 60_000;

/** The doing cell: what the member does, or the rule that denied its request lately. */
function doingCell(m: Member, run: Run, now: number, denied: ReadonlyMap<string, DeniedByRule> | undefined): Cell {
  const d = denied?.get(`${run.id}/${m.name}`);
  // A question asked after the denial (or at a time unknown) gives way, not the one it denied.
  const asks = m.activity === 'waiting' && m.activityCue === 'question';
  if (!d || now - d.at > DENIED_SHOWN_MS || (asks && !(Date.parse(m.activitySince ?? '') <= d.at)))
    return activityCell(m, now);
  return { text: `✗ denied: ${sanitizeLine(d.rule)}`, tone: 'red' };
}

/** The team pane's content lines. */
export function teamLines({ run, cursor, focused, width, height, now, threshold, denied }: TeamProps): Segment[][] {
  const members = run?.members ?? [];
  const teams = new Set(members.map((m) => m.team).filter(Boolean));
  // A tina run merges several teams: show which one when there is more than one. The context column
  // only when some member's context is known; the CLI column when some member runs another CLI than
  // Claude Code (a team of Claude Code alone says nothing new with it).
  const otherCli = members.some((m) => m.agent !== undefined && m.agent !== 'claude-code');
  const shown = COLUMNS.filter(
    (c) =>
      (c.key !== 'team' || teams.size > 1) &&
      (c.key !== 'context' || members.some((m) => m.context)) &&
      (c.key !== 'cli' || otherCli),
  );
  const widest = (cells: string[]) => Math.max(0, ...cells.map(displayWidth));
  const cols = fitColumns(shown, width, 1, {
    name: widest(members.map((m) => memberLabel(m))),
    team: widest(members.map((m) => (m.team ? teamLabel(m.team, run?.name ?? '') : ''))),
    role: widest(members.map((m) => sanitizeLine(m.role))),
    model: widest(members.map((m) => sanitizeLine(m.model))),
  });
  const limit = run?.context?.threshold ?? threshold;
  return listLines({
    top: members.length > 0 ? [headerRow(cols)] : [],
    count: members.length,
    cursor,
    focused,
    height,
    empty: run ? 'no team members known' : 'no run selected',
    row: (i, selected) => {
      const m = members[i];
      if (!m) return [];
      return tableRow(cols, {
        mark: mark(selected),
        lead: m.lead ? { text: '★', tone: 'amber' } : { text: '' },
        name: { text: memberLabel(m), tone: m.lead ? 'title' : 'plain' },
        team: { text: m.team ? teamLabel(m.team, run?.name ?? '') : '', tone: 'dim' },
        role: { text: sanitizeLine(m.role), tone: 'dim' },
        model: { text: sanitizeLine(m.model), tone: 'dim' },
        cli: agentCell(m),
        pane: { text: m.paneId ? sanitizeLine(m.paneId) : '-' },
        state: memberStateCell(m.state),
        context: contextCell(m, limit),
        doing: run ? doingCell(m, run, now, denied) : activityCell(m, now),
      });
    },
  });
}

/**
 * The member's name as the list shows it: the ★ marks the lead; the word says it too (for screens without
 * symbols) unless the name does.
 */
function memberLabel(m: Member): string {
  const name = sanitizeLine(m.name);
  return m.lead && !/lead/i.test(name) ? `${name} (lead)` : name;
}

/** A team's name without the run's own name in front: `checkout-flow-phase-2` → `phase-2`. */
export function teamLabel(team: string, runName: string): string {
  const label = runName && team.startsWith(`${runName}-`) ? team.slice(runName.length + 1) : team;
  return sanitizeLine(label);
}

/** The team pane: every member of the run, its pane alive or dead, what it is doing, its context. */
export const teamPane: PaneSpec<'team'> = {
  id: 'team',
  title: ({ run }) => `Team · ${run?.members.length ?? 0}`,
  rows: ({ run }) => run?.members.length ?? 0,
  wants: ({ run }) => Math.max(1, (run?.members.length ?? 0) + 1),
  topLines: 1,
  slot: { column: 0, min: 2, ask: (w) => w, grow: false },
  draw: (c) =>
    framed(
      teamPane,
      c,
      c.memo.draw('team', teamLines, {
        run: c.run,
        cursor: c.cursor,
        focused: c.focused,
        width: c.rect.width - 2,
        height: c.rect.height - 2,
        now: c.teamNow,
        threshold: c.contextThreshold,
        denied: c.deniedByRule,
      }),
    ),
};
