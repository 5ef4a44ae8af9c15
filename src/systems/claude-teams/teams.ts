/**
 * Claude Code agent teams: the folders `teams/<team>/` with their config and their task folder
 * `tasks/<team>/`, read into a Team each (the config's shape is team-config.ts, the tasks tasks.ts).
 * Read on their own (a `claude-team` run, team-run.ts) and underneath tina, which merges its teams
 * into its run.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { isDir, listEntries, mtimeMs, unsafeName } from '../../files/look.js';
import { cleanProblem, readJsonSeen } from '../../files/read.js';
import type { Seen } from '../../files/read.js';
import { liveSessionOf, panePlaceOf } from './sessions.js';
import { parseTeamConfig } from './team-config.js';
import { readTasks } from './tasks.js';
import type { Team } from '../types.js';

/**
 * Reads every team under `<claudeDir>/teams/` with its tasks.
 * A team whose config can't be read still appears, with its problem.
 */
export function readTeams(
  claudeDir: string,
  reuse?: (dirName: string) => Team | null,
): { teams: Team[]; problems: Problem[] } {
  const teamsDir = path.join(claudeDir, 'teams');
  const tasksRoot = path.join(claudeDir, 'tasks');
  const problems: Problem[] = [];
  const teams: Team[] = [];
  for (const entry of listEntries(teamsDir, problems)) {
    const dirName = entry.name;
    const teamDir = `${teamsDir}${path.sep}${dirName}`;
    // The listing says which entries are folders: a stat only for a link (or a type it did not give).
    if (!entry.isDirectory() && (entry.isFile() || !isDir(teamDir))) continue;
    if (unsafeName(dirName)) {
      problems.push({ file: sanitizeLine(teamDir), message: 'team folder name contains control characters; skipped' });
      continue;
    }
    if (beingDeleted(dirName)) continue;
    // A listed name is one path segment: joined as it is, not normalized again.
    const team = reuse?.(dirName) ?? readTeamIn(claudeDir, dirName, teamDir, `${tasksRoot}${path.sep}${dirName}`);
    if (team) teams.push(team);
  }
  return { teams, problems };
}

/**
 * A team folder Claude Code is deleting: as a session ends it renames its team folder to
 * `<team>.deleted-<uuid>` and then removes it (such a folder stays only when the removal failed or
 * the process died between the two; the CLI's own cleanup removes it later). Not a team, not listed.
 */
export function beingDeleted(dirName: string): boolean {
  return DELETED.test(dirName);
}
const DELETED = /\.deleted-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;

/**
 * Reads one team folder with its tasks (the live store re-reads only the team that changed).
 * Null when the folder is gone or its name is unsafe (readTeams reports that).
 */
export function readTeam(claudeDir: string, dirName: string): Team | null {
  const teamDir = path.join(claudeDir, 'teams', dirName);
  if (beingDeleted(dirName) || !isDir(teamDir) || unsafeName(dirName)) return null;
  return readTeamIn(claudeDir, dirName, teamDir, path.join(claudeDir, 'tasks', dirName));
}

/**
 * readTeam of a folder known to be there. Two stats per team at most (its task folder, and the one
 * named like the team when that is not there): the config's date comes from the read's own fstat,
 * and the task folder's stat says both that it is a folder and when it changed. On a box of 10,000
 * teams this took 70,000 stats down to 10,000 (the stats were ~0.45 s of a 2.6 s `tower status`).
 */
function readTeamIn(claudeDir: string, dirName: string, teamDir: string, tasksDir: string): Team {
  const configFile = `${teamDir}${path.sep}config.json`;
  const seen: Seen = { mtimeMs: null };
  const read = readJsonSeen(configFile, seen);
  let team: Team;
  if (read.ok) {
    const parsed = parseTeamConfig(read.value, configFile, tasksDir);
    team = parsed.team ?? placeholderTeam(dirName, configFile, tasksDir);
    team.problems.push(...parsed.problems);
  } else {
    // A half-written config must not hide the team: tina still merges it by name and shows the problem.
    team = placeholderTeam(dirName, configFile, tasksDir);
    team.problems.push(cleanProblem(read.problem));
  }
  // The task folder is named like the team folder; a team whose folder name differs from its name
  // (dots become `-`) may have its tasks under its name.
  let tasksStat = statOrNull(tasksDir);
  if (!tasksStat?.isDirectory() && team.name !== dirName && !unsafeName(team.name) && !team.name.includes('/')) {
    const byName = path.join(claudeDir, 'tasks', team.name);
    const st = statOrNull(byName);
    if (st?.isDirectory()) {
      team.tasksDir = byName;
      tasksStat = st;
    }
  }
  placeLead(team, claudeDir);
  const tasks = readTasks(team.tasksDir, team.name);
  team.tasks = tasks.tasks;
  team.problems.push(...tasks.problems);
  // As changedAt: the newer of the config's date and the task folder's. A config that could not
  // be opened is still dated by a stat.
  const configAt = seen.mtimeMs ?? mtimeMs(configFile);
  const tasksAt = tasksStat ? tasksStat.mtimeMs : null;
  team.changedAt = configAt === null ? tasksAt : tasksAt === null || configAt >= tasksAt ? configAt : tasksAt;
  return team;
}

/** A path's stat (following links), or null when it is missing or can't be looked at. */
function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * How long a team's files stay unchanged, with no member's pane alive, before the team counts as
 * ended: Claude Code never deletes team folders, so a box collects thousands of these. Two days.
 */
export const ENDED_AFTER_MS = 2 * 24 * 60 * 60 * 1000;

/** When a team's files last changed: the newer of its config file and its task folder (null: neither there). */
export function changedAt(configFile: string, tasksDir: string): number | null {
  let newest: number | null = null;
  for (const p of [configFile, tasksDir]) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (st && (newest === null || st.mtimeMs > newest)) newest = st.mtimeMs;
  }
  return newest;
}

/** When a team's files last changed (see changedAt). */
export function teamChangedAt(team: Team): number | null {
  return changedAt(team.configFile, team.tasksDir);
}

/** Whether a team's files have been quiet long enough to count as ended (its panes are looked at apart). */
export function quietLongEnough(team: Pick<Team, 'changedAt'>, now: number): boolean {
  return team.changedAt != null && now - team.changedAt > ENDED_AFTER_MS;
}

function placeholderTeam(dirName: string, configFile: string, tasksDir: string): Team {
  return {
    name: sanitizeLine(dirName),
    configFile,
    tasksDir,
    description: null,
    createdAt: null,
    cwd: null,
    members: [],
    tasks: [],
    problems: [],
  };
}

/**
 * The pane of a lead that runs in its own process (`tmuxPaneId: "leader"`): its process is the
 * config's `leadProcess`, alive as the one that wrote Claude Code's session file (same start time),
 * and sits in the pane its own environment names (`TMUX_PANE`), else the one its session file names.
 * Liveness then holds the pane to that process (its `leadProcess`, store/pane-evidence.ts).
 */
function placeLead(team: Team, claudeDir: string): void {
  const lead = team.members.find((m) => m.lead && m.state === 'in-process' && !m.paneId);
  const proc = lead?.leadProcess;
  if (!lead || !proc) return;
  const session = liveSessionOf(claudeDir, proc.pid, String(proc.procStart));
  if (!session) return;
  const paneId = panePlaceOf(proc.pid)?.paneId ?? session.tmuxPane;
  if (!paneId) return;
  lead.paneId = paneId;
  lead.state = 'unknown';
}
