/**
 * The words and symbols the panes print for states. Colour only adds to them: with NO_COLOR the
 * same words say everything ("[ESC]", "✗ dead", "… pending").
 */
import type { Gate, Member, MemberState, ReviewVerdict, RunStatus, System } from '../../model/model.js';
import { AGENT_BADGES } from '../../model/values.js';
import type { ActivityEntry } from '../../store/types.js';
import { SYSTEM_MODULES } from '../../systems/registry.js';
import type { Cell } from '../components/table.js';
import type { Tone } from '../theme.js';

/** A member's agent CLI as the team pane shows it: its module's badge, `?` for one tower does not know, empty before it is read. */
export function agentCell(m: Member): Cell {
  if (!m.agent) return { text: '' };
  const badge = m.agent === 'unknown' ? undefined : AGENT_BADGES[m.agent];
  return badge ? { text: badge, tone: 'dim' } : { text: '?', tone: 'amber' };
}

/** The system badge in the runs list. */
export const SYSTEM_BADGE = Object.fromEntries(SYSTEM_MODULES.map((m) => [m.system, m.badge])) as Record<
  System,
  string
>;

const STATUS_TONE: Record<RunStatus, Tone> = {
  running: 'green',
  waiting: 'amber',
  blocked: 'red',
  complete: 'dim',
  idle: 'dim',
  unknown: 'dim',
};

/** A run's status word. */
export function runStatusCell(status: RunStatus): Cell {
  return { text: status, tone: STATUS_TONE[status] };
}

const MEMBER: Record<MemberState, Cell> = {
  alive: { text: '● alive', tone: 'green' },
  dead: { text: '✗ dead', tone: 'red' },
  'in-process': { text: '◐ in-process', tone: 'accent' },
  unknown: { text: '? unknown', tone: 'dim' },
  'not-its-pane': { text: '? not its pane', tone: 'amber' },
};

/** A member's pane state as symbol and word. */
export function memberStateCell(state: MemberState): Cell {
  return MEMBER[state];
}

const VERDICT: Record<ReviewVerdict, Cell> = {
  passed: { text: '✓ passed', tone: 'green' },
  failed: { text: '✗ failed', tone: 'red' },
  pending: { text: '… pending', tone: 'dim' },
};

/** A review verdict as symbol and word. */
export function verdictCell(verdict: ReviewVerdict): Cell {
  return VERDICT[verdict];
}

const GATE_TAG: Record<Gate['kind'], Cell> = {
  checkpoint: { text: '[CHK]', tone: 'amber' },
  approval: { text: '[APR]', tone: 'amber' },
  context: { text: '[CTX]', tone: 'amber' },
  escalation: { text: '[ESC]', tone: 'red' },
};

/** A gate's kind tag; granted gates are dim whatever their kind. */
export function gateTagCell(gate: Gate): Cell {
  const tag = GATE_TAG[gate.kind];
  return gate.state === 'granted' ? { text: tag.text, tone: 'dim' } : tag;
}

/** A task status, coloured by how far along it is. */
export function taskStatusTone(status: string): Tone {
  const s = status.toLowerCase();
  if (/^(completed?|done|passed)$/.test(s)) return 'green';
  if (/^(blocked|failed|error)$/.test(s)) return 'red';
  if (/^(in_progress|running|active|pre_complete)$/.test(s)) return 'accent';
  return 'plain';
}

const ACTIVITY_TONE: Record<ActivityEntry['status'], Tone> = {
  running: 'accent',
  done: 'green',
  refused: 'amber',
  failed: 'red',
  cancelled: 'dim',
  timeout: 'red',
};

/** An activity entry's status word. */
export function activityStatusCell(status: ActivityEntry['status']): Cell {
  return { text: status, tone: ACTIVITY_TONE[status] };
}
