/**
 * Which Claude Code teams make up a tina run: the teams tina names after the feature and the phase,
 * and, on Claude Code 2.1.178 and later, the session teams of the run's leads.
 */
import path from 'node:path';
import type { Problem } from '../../model/model.js';
import type { Team } from '../types.js';
import { comparePhases, phaseOfName } from './phases.js';

/** Whether `dir` is `root` or lies inside it. */
export function isInside(dir: string, root: string): boolean {
  if (!path.isAbsolute(dir)) return false;
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** tina's older phase teams, named without the feature. */
const OLDER_PHASE = /^phase-(\d+(?:\.\d+)*)-execution$/;
/**
 * `<feature>-phase-<N>`: the feature is what comes before the last `-phase-`, since what follows it
 * holds no letter. Remediation teams are `<feature>-phase-2.5` (`-2-5` where only the folder name is known).
 */
const FEATURE_PHASE = /^(.*)-phase-(\d+(?:[.-]\d+)*)$/;
const ORCHESTRATION = '-orchestration';

/** A team with the phase its name gives (`''` for a team named after the feature itself). */
interface PhaseTeam {
  n: string;
  team: Team;
}

/**
 * The teams of one read, looked up by what a tina run asks of them: by the feature their name
 * carries, by a member's pane and by their cwd. A read of R tina runs on a box of T teams then costs
 * T + R lookups instead of R × T name tests (50 runs re-read on a box of 10,000 teams were 500,000).
 */
interface TeamIndex {
  /** Where each team stands in the list: picks keep the list's order. */
  position: Map<Team, number>;
  orchestration: Map<string, Team[]>;
  phases: Map<string, PhaseTeam[]>;
  /** Teams by name, for a team named after the feature itself (not session or older phase teams). */
  byName: Map<string, Team[]>;
  /** `phase-<N>-execution` teams (not session teams). */
  olderPhase: PhaseTeam[];
  /** Session teams by a member's pane, and by their resolved absolute cwd. */
  sessionByPane: Map<string, Team[]>;
  sessionByCwd: Map<string, Team[]>;
}

/**
 * What is known of each list of teams handed to the runs of a read (lists are never changed once
 * handed; one whose size changed anyway is taken as new): how many runs walked it, and its index
 * once made.
 */
const lists = new WeakMap<readonly Team[], { size: number; walks: number; index: TeamIndex | null }>();

/**
 * Runs that walk a list before it is indexed. On a box of 10,000 teams a walk costs a run ~1.2 ms
 * and the index ~6 ms to make, then ~0.01 ms a run (Nov 2026): the live store's common change, a
 * task of one team re-read with the one tina run that takes it in, stays a walk; a read of many runs
 * (`tower status`, a team that came, the periodic full read) is indexed.
 */
const WALKS_BEFORE_INDEX = 4;

/** The list's index when enough runs have walked it, else null (the caller walks, and that is counted). */
function indexFor(teams: readonly Team[]): TeamIndex | null {
  let known = lists.get(teams);
  if (!known || known.size !== teams.length) lists.set(teams, (known = { size: teams.length, walks: 0, index: null }));
  if (known.index === null && ++known.walks > WALKS_BEFORE_INDEX) known.index = indexOf(teams);
  return known.index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function indexOf(teams: readonly Team[]): TeamIndex {
  const index: TeamIndex = {
    position: new Map(),
    orchestration: new Map(),
    phases: new Map(),
    byName: new Map(),
    olderPhase: [],
    sessionByPane: new Map(),
    sessionByCwd: new Map(),
  };
  for (let i = 0; i < teams.length; i++) {
    const team = teams[i]!;
    const name = team.name;
    index.position.set(team, i);
    // A team named for a feature is that feature's alone; for every other run it is whatever else its name says.
    if (name.endsWith(ORCHESTRATION)) push(index.orchestration, name.slice(0, -ORCHESTRATION.length), team);
    else {
      const m = name.includes('-phase-') ? FEATURE_PHASE.exec(name) : null;
      if (m) push(index.phases, m[1] ?? '', { n: phaseOfName(m[2] ?? ''), team });
    }
    if (isSessionTeam(team)) {
      const panes = new Set<string>();
      for (const member of team.members) if (member.paneId) panes.add(member.paneId);
      for (const pane of panes) push(index.sessionByPane, pane, team);
      if (team.cwd !== null && path.isAbsolute(team.cwd)) push(index.sessionByCwd, path.resolve(team.cwd), team);
      continue;
    }
    const old = name.startsWith('phase-') ? OLDER_PHASE.exec(name) : null;
    if (old) index.olderPhase.push({ n: old[1] ?? '', team });
    else push(index.byName, name, team);
  }
  return index;
}

/**
 * The teams of a tina run, in display order: `<feature>-orchestration`, then `<feature>-phase-<N>` by N,
 * then the older `phase-<N>-execution` teams (and a team named after the feature itself), which carry no
 * feature in their name and so count only when their members work inside the run's root; then the
 * session teams of Claude Code 2.1.178 and later that belong to the run (see pickSessionTeams), with the
 * problems of that choice.
 */
export function tinaTeams(
  feature: string | null,
  root: string,
  teams: readonly Team[],
  paneSessions?: ReadonlyMap<string, string>,
): SessionTeamPick {
  const index = indexFor(teams);
  return index ? pickByIndex(index, feature, root, paneSessions) : pickByWalk(feature, root, teams, paneSessions);
}

/** Orders teams with the phase their name gives: the feature's own teams first, then by phase. */
const byN = (a: { n: string }, b: { n: string }): number =>
  a.n === b.n ? 0 : a.n === '' ? -1 : b.n === '' ? 1 : comparePhases(a.n, b.n);

/** tinaTeams by testing every team of the list, cheapest test first. */
function pickByWalk(
  feature: string | null,
  root: string,
  teams: readonly Team[],
  paneSessions: ReadonlyMap<string, string> | undefined,
): SessionTeamPick {
  const orchestration: Team[] = [];
  const sessions: Team[] = [];
  const phases: PhaseTeam[] = [];
  const older: PhaseTeam[] = [];
  const ownPrefix = feature === null ? null : `${feature}-`;
  const orchestrationName = `${feature}${ORCHESTRATION}`;
  for (const team of teams) {
    const name = team.name;
    if (ownPrefix !== null && name.startsWith(ownPrefix)) {
      if (name === orchestrationName) {
        orchestration.push(team);
        continue;
      }
      const m = FEATURE_PHASE.exec(name);
      if (m && m[1] === feature) {
        phases.push({ n: phaseOfName(m[2] ?? ''), team });
        continue;
      }
    }
    if (isSessionTeam(team)) {
      sessions.push(team);
      continue;
    }
    const old = name.startsWith('phase-') ? OLDER_PHASE.exec(name) : null;
    if ((old === null && name !== feature) || team.cwd === null || !isInside(team.cwd, root)) continue;
    older.push({ n: old ? (old[1] ?? '') : '', team });
  }
  const named = [...orchestration, ...phases.sort(byN).map((p) => p.team), ...older.sort(byN).map((p) => p.team)];
  const picked = pickSessionTeams(feature, root, sessions, named, paneSessions);
  return { teams: [...named, ...picked.teams], problems: picked.problems };
}

/** tinaTeams from the list's index: only the run's own teams are looked at. */
function pickByIndex(
  index: TeamIndex,
  feature: string | null,
  root: string,
  paneSessions: ReadonlyMap<string, string> | undefined,
): SessionTeamPick {
  const orchestration = feature === null ? [] : (index.orchestration.get(feature) ?? []);
  const phases = feature === null ? [] : [...(index.phases.get(feature) ?? [])];
  const own = new Set<Team>(orchestration);
  for (const p of phases) own.add(p.team);
  // A name is the feature's own, an older phase's or the feature's itself, never two of them.
  const olderNamed =
    feature === null
      ? index.olderPhase
      : [...index.olderPhase, ...(index.byName.get(feature) ?? []).map((team) => ({ n: '', team }))];
  const older = olderNamed.filter((p) => p.team.cwd !== null && isInside(p.team.cwd, root));
  const byPosition = (a: PhaseTeam, b: PhaseTeam): number => index.position.get(a.team)! - index.position.get(b.team)!;
  const named = [
    ...orchestration,
    ...phases.sort(byN).map((p) => p.team),
    ...older
      .sort(byPosition)
      .sort(byN)
      .map((p) => p.team),
  ];
  const picked = pickSessionTeams(
    feature,
    root,
    sessionCandidates(index, feature, root, named, own, paneSessions),
    named,
    paneSessions,
  );
  return { teams: [...named, ...picked.teams], problems: picked.problems };
}

/**
 * The session teams pickSessionTeams could take for a run, in the list's order: those with a member in
 * a pane of one of the run's leads or of a tmux session tina starts its leads in, and those working in
 * the run's worktree. Every other session team of the box it would pass over anyway.
 */
function sessionCandidates(
  index: TeamIndex,
  feature: string | null,
  root: string,
  named: readonly Team[],
  own: ReadonlySet<Team>,
  paneSessions: ReadonlyMap<string, string> | undefined,
): Team[] {
  const found = new Set<Team>();
  const add = (list: readonly Team[] | undefined): void => {
    if (list) for (const team of list) if (!own.has(team)) found.add(team);
  };
  for (const team of named)
    for (const m of team.members) if (m.lead && m.paneId) add(index.sessionByPane.get(m.paneId));
  if (feature !== null && paneSessions)
    for (const [pane, session] of paneSessions) if (inRunSession(session, feature)) add(index.sessionByPane.get(pane));
  add(index.sessionByCwd.get(path.resolve(root)));
  return [...found].sort((a, b) => index.position.get(a)! - index.position.get(b)!);
}

/**
 * A Claude Code session team: from 2.1.178 every session has one implicit team,
 * `teams/session-<session id>/` (https://code.claude.com/docs/en/agent-teams: "spawning a teammate no
 * longer needs a setup step, and cleanup happens automatically when the session exits"), so a tina
 * phase lead's team is no longer named `<feature>-phase-<N>`. Told by its folder, else its name.
 */
const SESSION_TEAM = /^session-[A-Za-z0-9_-]{1,100}$/;

const SESSION_FOLDER = `${path.sep}session-`;

export function isSessionTeam(team: Team): boolean {
  // The cheap tests first: every run's walk asks this of every team of the box.
  if (!team.name.startsWith('session-') && !team.configFile.includes(SESSION_FOLDER)) return false;
  return SESSION_TEAM.test(path.basename(path.dirname(team.configFile))) || SESSION_TEAM.test(team.name);
}

/** The tmux sessions tina starts a run's leads in: `tina-<feature>-orchestration`, `tina-<feature>-phase-<P>`. */
function inRunSession(session: string, feature: string): boolean {
  const f = feature.replace(/\./g, '_');
  return session === `tina-${f}-orchestration` || session.startsWith(`tina-${f}-phase-`);
}

/** When a session team began, for "the newest": its `createdAt`, else when its files last changed. */
function startedAt(team: Team): number {
  const created = team.createdAt !== null ? Date.parse(team.createdAt) : NaN;
  return Number.isFinite(created) ? created : (team.changedAt ?? 0);
}

/** The session teams a tina run takes in, and the problems of a choice it could not be sure of. */
export interface SessionTeamPick {
  teams: Team[];
  problems: Problem[];
}

/**
 * The session teams of a tina run, strongest tie first. tina records no lead session id on disk (it
 * registers `leadSessionId: "pending"` with its service: joshuabates/tina 20a8749,
 * tina-session/src/commands/start.rs `register_phase_team`), so what ties a session team to its run is:
 * - a member's pane: the pane of a lead already known from the run's named teams, or a pane in one of
 *   the tmux sessions tina starts the run's leads in (`tina-<feature>-phase-<P>`, start.rs
 *   `tmux::create_session(&name, &cwd, …)` with `session_name` of session/naming.rs); every such team
 *   is taken;
 * - else the team's cwd being the run's worktree (the lead starts there: start.rs `resolve_working_dir`).
 *   Several teams in one worktree cannot all be the run's: the newest is taken, the others stay runs
 *   of their own, and a problem on the run names them.
 */
export function pickSessionTeams(
  feature: string | null,
  root: string,
  candidates: readonly Team[],
  named: readonly Team[],
  paneSessions: ReadonlyMap<string, string> | undefined,
): SessionTeamPick {
  if (candidates.length === 0) return { teams: [], problems: [] };
  const leadPanes = new Set<string>();
  for (const team of named) for (const m of team.members) if (m.lead && m.paneId) leadPanes.add(m.paneId);
  const byPane: Team[] = [];
  const byCwd: Team[] = [];
  const worktree = path.resolve(root);
  for (const team of candidates) {
    const tied = team.members.some((m) => {
      if (!m.paneId) return false;
      if (leadPanes.has(m.paneId)) return true;
      const session = paneSessions?.get(m.paneId);
      return feature !== null && session !== undefined && inRunSession(session, feature);
    });
    if (tied) byPane.push(team);
    else if (team.cwd !== null && path.isAbsolute(team.cwd) && path.resolve(team.cwd) === worktree) byCwd.push(team);
  }
  const newestFirst = (a: Team, b: Team): number =>
    startedAt(b) - startedAt(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (byPane.length > 0) return { teams: byPane.sort(newestFirst).reverse(), problems: [] };
  if (byCwd.length === 0) return { teams: [], problems: [] };
  const [newest, ...others] = byCwd.sort(newestFirst);
  const problems: Problem[] = [];
  if (newest && others.length > 0) {
    problems.push({
      file: newest.configFile,
      message:
        `${byCwd.length} Claude Code session teams work in this worktree and none is tied to ` +
        `the run by a pane: took the newest, ${newest.name}; ${others.map((t) => t.name).join(', ')} ` +
        `listed on ${others.length === 1 ? 'its' : 'their'} own`,
    });
  }
  return { teams: newest ? [newest] : [], problems };
}
