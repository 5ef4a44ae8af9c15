/**
 * Member liveness from one `tmux list-panes -a`: a member with a pane id is alive when the pane
 * exists and is not dead, dead when the server is up but the pane is gone or dead, unknown when
 * there is no server to ask. In-process members have no pane and stay as they are.
 */
import type { Member, MemberState, Run } from '../model.js';
import { systemOf } from '../systems/registry.js';
import type { PaneInfo } from '../tmux/client.js';

/** The panes of one list-panes call, indexed for lookups. */
export interface PaneIndex {
  byId: Map<string, PaneInfo>;
  /** The first pane (lowest window, then pane index) of each session. */
  firstBySession: Map<string, PaneInfo>;
}

/** Indexes panes by id and by session; null (no server) stays null. */
export function indexPanes(panes: readonly PaneInfo[] | null): PaneIndex | null {
  if (panes === null) return null;
  const byId = new Map<string, PaneInfo>();
  const firstBySession = new Map<string, PaneInfo>();
  for (const p of panes) {
    byId.set(p.paneId, p);
    const first = firstBySession.get(p.session);
    if (!first || p.window < first.window || (p.window === first.window && p.index < first.index)) {
      firstBySession.set(p.session, p);
    }
  }
  return { byId, firstBySession };
}

/**
 * The part of a pane list that liveness depends on, as one string: when it is unchanged between
 * two polls, no run's liveness can have changed (titles and commands change often and don't matter).
 */
export function livenessKey(panes: readonly PaneInfo[] | null): string {
  if (panes === null) return 'no-server';
  return panes
    .map((p) => `${p.paneId}\t${p.dead ? 1 : 0}\t${p.session}\t${p.window}\t${p.index}`)
    .sort()
    .join('\n');
}

/** The state of a pane id against the pane list. */
export function paneState(paneId: string, index: PaneIndex | null): MemberState {
  if (index === null) return 'unknown';
  const pane = index.byId.get(paneId);
  return pane && !pane.dead ? 'alive' : 'dead';
}

/** Applies liveness to a run's members; returns the same object when nothing changes. */
export function applyLiveness(run: Run, index: PaneIndex | null): Run {
  const leadSlot = sessionLeadSlot(run, index);
  let changed = false;
  let members = run.members.map((m, i) => {
    const next = memberLiveness(m, index, i === leadSlot?.member ? leadSlot.pane : null);
    if (next !== m) changed = true;
    return next;
  });
  const ghosts = ghostsOfDeadLeads(members);
  if (ghosts.members !== members) {
    members = ghosts.members;
    changed = true;
  }
  // A team whose files are quiet but whose member's pane is alive has not ended.
  const revived = run.ended === true && members.some((m) => m.state === 'alive');
  if (!changed && !revived) return run;
  if (revived) return { ...run, members, ended: false, warnings: [...(run.warnings ?? []), ...ghosts.warnings] };
  return ghosts.warnings.length > 0 ? { ...run, members, warnings: [...(run.warnings ?? []), ...ghosts.warnings] } : { ...run, members };
}

/**
 * In-process members live inside their lead's process: when the lead's pane is gone, the members
 * the team file still lists as in-process are left over from a crash (Claude Code keeps them), so
 * their state is unknown and the run says so.
 */
function ghostsOfDeadLeads(members: Member[]): { members: Member[]; warnings: string[] } {
  const deadLeads = members.filter((m) => m.lead && m.paneId && m.state === 'dead' && m.team !== undefined);
  if (deadLeads.length === 0) return { members, warnings: [] };
  const warnings: string[] = [];
  let out = members;
  for (const lead of deadLeads) {
    const ghosts = members.filter((m) => m.team === lead.team && m.state === 'in-process' && !m.lead);
    if (ghosts.length === 0) continue;
    out = out.map((m) => (ghosts.includes(m) ? { ...m, state: 'unknown' as const } : m));
    warnings.push(
      `team ${lead.team ?? ''}: lead ${lead.name}'s pane ${lead.paneId ?? ''} is gone; in-process ${ghosts.map((g) => g.name).join(', ')} may be left over from a crash`,
    );
  }
  return { members: out, warnings };
}

function memberLiveness(m: Member, index: PaneIndex | null, sessionPane: PaneInfo | null): Member {
  if (m.state === 'in-process') return m;
  if (m.paneId) {
    const state = paneState(m.paneId, index);
    return state === m.state ? m : { ...m, state };
  }
  if (sessionPane) return { ...m, paneId: sessionPane.paneId, state: sessionPane.dead ? 'dead' : 'alive' };
  return m;
}

/**
 * For a run whose working lead names no pane (a tina phase lead): the lead gets the first pane of the
 * session its system runs it in, when that session exists. The lead is the one of the working team,
 * else a lead of no known team.
 */
function sessionLeadSlot(run: Run, index: PaneIndex | null): { member: number; pane: PaneInfo } | null {
  if (index === null) return null;
  const cycle = systemOf(run.system).cycle;
  const session = cycle?.leadSession(run);
  if (!cycle || !session) return null;
  const pane = index.firstBySession.get(session);
  if (!pane) return null;
  const working = cycle.workingTeams(run) ?? [];
  const paneless = (m: Member) => m.lead && !m.paneId && m.state !== 'in-process';
  let member = run.members.findIndex((m) => paneless(m) && m.team !== undefined && working.includes(m.team));
  if (member < 0) member = run.members.findIndex((m) => paneless(m) && m.team === undefined);
  return member < 0 ? null : { member, pane };
}
