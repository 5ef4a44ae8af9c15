/**
 * Member liveness from one `tmux list-panes -a` of tower's server and one of each Claude Code swarm
 * server: a member with a pane id is alive when the pane exists and is not dead, dead when the
 * server is up but the pane is gone or dead, unknown when there is no server to ask. In-process
 * members have no pane and stay as they are. Where the pane is decides which server it is on
 * (store/pane-server.ts); a `%N` that several servers hold and nothing tells apart is unknown.
 */
import type { Member, MemberState, Problem, Run } from '../model/model.js';
import { systemOf } from '../systems/registry.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SwarmServer } from '../tmux/swarm.js';
import { StartBook } from './pane-evidence.js';
import { locatePane, startsOf, teamTie } from './pane-server.js';
import { folderPanes, seatsByFolder } from './folder-panes.js';
import { seatLead } from './lead-seat.js';
import type { PaneIndex, PaneWhere, TeamTie } from './pane-server.js';

export type { PaneIndex } from './pane-server.js';

/** Indexes panes by id and by session; no server of any kind stays null. */
export function indexPanes(panes: readonly PaneInfo[] | null, swarms: readonly SwarmServer[] = []): PaneIndex | null {
  if (panes === null && swarms.length === 0) return null;
  const swarmIndex = swarms.map((s) => ({
    name: s.name,
    leadPid: s.leadPid,
    leadAlive: s.leadAlive,
    leadCwd: s.leadCwd,
    byId: new Map(s.panes.map((p) => [p.paneId, p] as const)),
  }));
  const byId = new Map<string, PaneInfo>();
  const firstBySession = new Map<string, PaneInfo>();
  for (const p of panes ?? []) {
    byId.set(p.paneId, p);
    const first = firstBySession.get(p.session);
    if (!first || p.window < first.window || (p.window === first.window && p.index < first.index)) {
      firstBySession.set(p.session, p);
    }
  }
  const starts = new StartBook();
  return swarms.length === 0
    ? { byId, firstBySession, starts }
    : { byId, firstBySession, own: panes !== null, swarms: swarmIndex, starts };
}

/**
 * The part of a pane list that liveness depends on, as one string: when it is unchanged between
 * two polls, no run's liveness can have changed (titles and commands change often and don't matter).
 */
export function livenessKey(panes: readonly PaneInfo[] | null, swarms: readonly SwarmServer[] = []): string {
  // A pane's first process and its working directory are evidence of whose it is: they count too.
  const own =
    panes === null
      ? 'no-server'
      : panes
          .map((p) => `${p.paneId}\t${p.pid}\t${p.dead ? 1 : 0}\t${p.session}\t${p.window}\t${p.index}\t${p.cwd}`)
          .sort()
          .join('\n');
  const others = swarms.map(
    (s) =>
      `${s.name}\t${s.leadAlive ? 1 : 0}\t${s.leadCwd ?? ''}\n${s.panes
        .map((p) => `${p.paneId}\t${p.pid}\t${p.dead ? 1 : 0}\t${p.cwd}`)
        .sort()
        .join('\n')}`,
  );
  return [own, ...others.sort()].join('\n--\n');
}

/** The state of a pane id against tower's own server's pane list. */
export function paneState(paneId: string, index: PaneIndex | null): MemberState {
  if (index === null) return 'unknown';
  const pane = index.byId.get(paneId);
  return pane && !pane.dead ? 'alive' : 'dead';
}

/** Applies liveness to a run's members; returns the same object when nothing changes. */
export function applyLiveness(run: Run, index: PaneIndex | null): Run {
  // A system that names no agent or pane in its files: the panes working in the run's folder are its seats.
  if (index !== null && seatsByFolder(run)) {
    const seats = folderPanes(run.root as string, index);
    if (seats.length > 0) return { ...run, members: seats };
  }
  const leadSlot = sessionLeadSlot(run, index);
  const ties = teamTies(run, index);
  const found: Problem[] = [];
  // Plain loops, and a new list only from the first member that changes: `tower status` runs this
  // once per run, in code V8 has not optimized, where a map with its closure, an iterator per loop
  // and a filter's empty result are all made anew (~9 MB for a box of 10,000 teams).
  const before = run.members;
  let members = before;
  for (let i = 0; i < before.length; i++) {
    const m = before[i] as Member;
    const next = memberLiveness(
      m,
      run.root,
      index,
      leadSlot !== null && i === leadSlot.member ? leadSlot.pane : null,
      ties === null ? null : (ties.get(m.team ?? '') ?? null),
      found,
    );
    if (next === m) continue;
    if (members === before) members = before.slice();
    members[i] = next;
  }
  let changed = members !== before;
  const ghosts = ghostsOfDeadLeads(members);
  if (ghosts !== null) {
    members = ghosts.members;
    changed = true;
  }
  // A team whose files are quiet but whose member's pane is alive has not ended.
  const revived = run.ended === true && members.some((m) => m.state === 'alive');
  if (!changed && found.length === 0 && !revived) return run;
  const out: Run =
    ghosts !== null && ghosts.warnings.length > 0
      ? { ...run, members, warnings: [...(run.warnings ?? []), ...ghosts.warnings] }
      : { ...run, members };
  if (revived) out.ended = false;
  return found.length > 0 ? { ...out, problems: [...run.problems, ...found] } : out;
}

/** What each team's lead ties it to (pane-server.ts), by team name; null when no lead recorded a process. */
function teamTies(run: Run, index: PaneIndex | null): Map<string, TeamTie> | null {
  if (index === null) return null;
  let ties: Map<string, TeamTie> | null = null;
  for (const m of run.members) {
    if (!m.lead || !m.leadProcess) continue;
    const tie = teamTie(m, index);
    if (tie) (ties ??= new Map()).set(m.team ?? '', tie);
  }
  return ties;
}

/**
 * In-process members live inside their lead's process: when the lead's pane is gone, the members
 * the team file still lists as in-process are left over from a crash (Claude Code keeps them), so
 * their state is unknown and the run says so. Null when no member is such a leftover.
 */
function ghostsOfDeadLeads(members: Member[]): { members: Member[]; warnings: string[] } | null {
  let anyDeadLead = false;
  for (let i = 0; i < members.length && !anyDeadLead; i++) anyDeadLead = isDeadLead(members[i] as Member);
  if (!anyDeadLead) return null;
  const warnings: string[] = [];
  let out = members;
  for (const lead of members.filter(isDeadLead)) {
    const ghosts = members.filter((m) => m.team === lead.team && m.state === 'in-process' && !m.lead);
    if (ghosts.length === 0) continue;
    out = out.map((m) => (ghosts.includes(m) ? { ...m, state: 'unknown' as const } : m));
    warnings.push(
      `team ${lead.team ?? ''}: lead ${lead.name}'s pane ${lead.paneId ?? ''} is gone; in-process ` +
        `${ghosts.map((g) => g.name).join(', ')} may be left over from a crash`,
    );
  }
  return out === members ? null : { members: out, warnings };
}

function isDeadLead(m: Member): boolean {
  return m.lead && !!m.paneId && m.state === 'dead' && m.team !== undefined;
}

function memberLiveness(
  m: Member,
  root: string | null,
  index: PaneIndex | null,
  sessionPane: PaneInfo | null,
  tie: TeamTie | null,
  problems: Problem[],
): Member {
  if (m.state === 'in-process') {
    // A lead in Claude Code's own process, placed by its recorded process or its hooks.
    const seated = index === null ? null : seatLead(m, root, index, tie);
    if (seated === null) return m;
    if (seated.where.problem) problems.push({ file: null, message: `${m.name}: ${seated.where.problem}` });
    return withPlace(seated.member, seated.where, index);
  }
  if (m.paneId) {
    const where = locatePane(m, root, index, tie);
    if (where.problem) problems.push({ file: null, message: `${m.name}: ${where.problem}` });
    return withPlace(m, where, index);
  }
  if (sessionPane) {
    // The session's pane is checked like a named one: a tina lead's session can be another's now.
    const named = { ...m, paneId: sessionPane.paneId };
    const where = locatePane(named, root, index, null);
    if (where.problem) problems.push({ file: null, message: `${m.name}: ${where.problem}` });
    return withPlace(named, where, index);
  }
  return m;
}

/** The member with what locatePane found; the same object when nothing changed. */
function withPlace(m: Member, where: PaneWhere, index: PaneIndex | null): Member {
  const server = where.server ?? null;
  const start = where.pane && index ? startsOf(index).startOf(where.pane.pid) : null;
  const proc = where.pane ? { pid: where.pane.pid, start } : undefined;
  if (
    where.state === m.state &&
    server === (m.tmuxServer ?? null) &&
    where.unresolved === m.tmuxServerUnknown &&
    where.notItsPane === m.notItsPane &&
    proc?.pid === m.paneProcess?.pid &&
    proc?.start === m.paneProcess?.start
  )
    return m;
  // On tower's own server, resolved, with nothing to say (nearly every member): a spread that only
  // overwrites keeps the member's object shape (adding or dropping keys makes new ones).
  if (
    server === null &&
    proc === undefined &&
    where.unresolved === undefined &&
    where.notItsPane === undefined &&
    !('tmuxServer' in m) &&
    !('tmuxServerUnknown' in m) &&
    !('notItsPane' in m) &&
    !('paneProcess' in m)
  ) {
    return { ...m, state: where.state };
  }
  const { tmuxServer: _server, tmuxServerUnknown: _why, notItsPane: _not, paneProcess: _proc, ...rest } = m;
  return {
    ...rest,
    state: where.state,
    ...(server !== null ? { tmuxServer: server } : {}),
    ...(where.unresolved !== undefined ? { tmuxServerUnknown: where.unresolved } : {}),
    ...(where.notItsPane !== undefined ? { notItsPane: where.notItsPane } : {}),
    ...(proc !== undefined ? { paneProcess: proc } : {}),
  };
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
