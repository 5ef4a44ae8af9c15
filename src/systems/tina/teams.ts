/**
 * Which Claude Code teams make up a tina run: the teams tina names after the feature and the phase,
 * and, on Claude Code 2.1.178 and later, the session teams of the run's leads.
 */
import path from 'node:path';
import type { Problem } from '../../model.js';
import type { Team } from '../types.js';
import { comparePhases, phaseOfName } from './phases.js';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `dir` is `root` or lies inside it. */
export function isInside(dir: string, root: string): boolean {
  if (!path.isAbsolute(dir)) return false;
  const rel = path.relative(path.resolve(root), path.resolve(dir));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}


/** tina's older phase teams, named without the feature. */
const OLDER_PHASE = /^phase-(\d+(?:\.\d+)*)-execution$/;

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
  teams: Team[],
  paneSessions?: ReadonlyMap<string, string>,
): SessionTeamPick {
  const orchestration: Team[] = [];
  const sessions: Team[] = [];
  const phases: { n: string; team: Team }[] = [];
  const older: { n: string; team: Team }[] = [];
  const ownPrefix = feature === null ? null : `${feature}-`;
  const orchestrationName = `${feature}-orchestration`;
  // Remediation teams are `<feature>-phase-2.5` (`-2-5` where only the folder name is known).
  const phaseName = feature === null ? null : new RegExp(`^${escapeRegExp(feature)}-phase-(\\d+(?:[.-]\\d+)*)$`);
  // Every run looks at every team of the machine: names are tested cheapest first.
  const sessionFolder = `${path.sep}session-`;
  for (const team of teams) {
    const name = team.name;
    if (ownPrefix !== null && name.startsWith(ownPrefix)) {
      if (name === orchestrationName) {
        orchestration.push(team);
        continue;
      }
      const m = phaseName?.exec(name);
      if (m) {
        phases.push({ n: phaseOfName(m[1] ?? ''), team });
        continue;
      }
    }
    if (name.startsWith('session-') || team.configFile.includes(sessionFolder)) {
      if (isSessionTeam(team)) {
        sessions.push(team);
        continue;
      }
    }
    // The name first: it rules out most teams of a busy machine without resolving any path.
    const old = name.startsWith('phase-') ? OLDER_PHASE.exec(name) : null;
    const named = old !== null || (feature !== null && name === feature);
    if (!named || team.cwd === null || !isInside(team.cwd, root)) continue;
    older.push({ n: old ? (old[1] ?? '') : '', team });
  }
  const byN = (a: { n: string }, b: { n: string }): number => (a.n === b.n ? 0 : a.n === '' ? -1 : b.n === '' ? 1 : comparePhases(a.n, b.n));
  const named = [...orchestration, ...phases.sort(byN).map((p) => p.team), ...older.sort(byN).map((p) => p.team)];
  const picked = pickSessionTeams(feature, root, sessions, named, paneSessions);
  return { teams: [...named, ...picked.teams], problems: picked.problems };
}

/**
 * A Claude Code session team: from 2.1.178 every session has one implicit team,
 * `teams/session-<session id>/` (https://code.claude.com/docs/en/agent-teams: "spawning a teammate no
 * longer needs a setup step, and cleanup happens automatically when the session exits"), so a tina
 * phase lead's team is no longer named `<feature>-phase-<N>`. Told by its folder, else its name.
 */
const SESSION_TEAM = /^session-[A-Za-z0-9_-]{1,100}$/;

export function isSessionTeam(team: Team): boolean {
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
  const newestFirst = (a: Team, b: Team): number => startedAt(b) - startedAt(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  if (byPane.length > 0) return { teams: byPane.sort(newestFirst).reverse(), problems: [] };
  if (byCwd.length === 0) return { teams: [], problems: [] };
  const [newest, ...others] = byCwd.sort(newestFirst);
  const problems: Problem[] = [];
  if (newest && others.length > 0) {
    problems.push({
      file: newest.configFile,
      message: `${byCwd.length} Claude Code session teams work in this worktree and none is tied to the run by a pane: took the newest, ${newest.name}; ${others.map((t) => t.name).join(', ')} listed on ${others.length === 1 ? 'its' : 'their'} own`,
    });
  }
  return { teams: newest ? [newest] : [], problems };
}
