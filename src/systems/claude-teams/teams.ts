/**
 * Claude Code agent teams: `teams/<team>/config.json` and the task folder `tasks/<team>/<id>.json`.
 * Read on their own (a `claude-team` run) and underneath tina, which merges its teams into its run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Member, MemberState, Problem, Run, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { isDir, listEntries, mtimeMs, unsafeName } from '../../files/look.js';
import { cleanProblem, readJsonSeen } from '../../files/read.js';
import type { Seen } from '../../files/read.js';
import { eachJsonFile } from '../../files/json-dir.js';
import { transcriptFile, transcriptUsage } from './transcript.js';
import { liveSessionOf, panePlaceOf } from './sessions.js';
import { isObject, toIso } from '../../files/values.js';
import type { ReadSettings, Team } from '../types.js';

/** A tmux pane id as tmux prints it; anything else is not passed on to tmux as a target. */
const PANE_ID = /^%\d+$/;

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
 * Reads `<tasksDir>/<id>.json`, sorted by id. Claude Code also keeps `.lock`, `.highwatermark` and
 * `session-*` entries there: not tasks, skipped.
 */
export function readTasks(tasksDir: string, team: string): { tasks: Task[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const notTask = (name: string): boolean => name.startsWith('session-');
  const tasks: Task[] = [];
  eachJsonFile(tasksDir, 'task', problems, notTask, (value, file) => {
    const task = taskOf(value, file, team, problems);
    if (task) tasks.push(task);
  });
  return { tasks: sortByIds(tasks), problems };
}

/** Parses a team's config.json; members get state 'in-process' or 'unknown' (liveness comes later). */
export function parseTeamConfig(
  json: unknown,
  file: string,
  tasksDir: string,
): { team: Team | null; problems: Problem[] } {
  const problems: Problem[] = [];
  if (!isObject(json)) return { team: null, problems: [{ file, message: 'team config is not a JSON object' }] };
  const dirName = path.basename(path.dirname(file));
  if (!['name', 'members', 'leadAgentId'].some((k) => k in json)) {
    problems.push({
      file,
      message: 'unrecognised shape: no name, members or leadAgentId (not a Claude Code team config?)',
    });
  }
  const name = text(json.name) || sanitizeLine(dirName);
  const leadId = text(json.leadAgentId);
  const rawMembers = Array.isArray(json.members) ? json.members : [];
  if (json.members !== undefined && !Array.isArray(json.members)) {
    problems.push({ file, message: 'team config "members" is not a list' });
  }

  const members: Member[] = [];
  let cwd: string | null = null;
  let leadFound = false;
  rawMembers.forEach((raw, i) => {
    if (!isObject(raw)) {
      problems.push({ file, message: `member ${i + 1} is not an object` });
      return;
    }
    const agentId = text(raw.agentId);
    const memberName = text(raw.name) || agentId || `member-${i + 1}`;
    const isLead = leadId !== '' && (memberName === leadId || agentId === leadId);
    leadFound ||= isLead;
    const memberCwd = typeof raw.cwd === 'string' && raw.cwd !== '' ? sanitizeLine(raw.cwd) : null;
    if (cwd === null) cwd = memberCwd;
    const member: Member = {
      name: memberName,
      role: text(raw.agentType) || 'member',
      model: text(raw.model),
      paneId: paneIdOf(raw.tmuxPaneId, file, memberName, problems),
      state: stateOf(raw),
      lead: isLead,
      team: name,
    };
    // The evidence a pane is checked against (store/pane-evidence.ts).
    if (typeof raw.joinedAt === 'number' && Number.isFinite(raw.joinedAt) && raw.joinedAt > 0)
      member.joinedAt = raw.joinedAt;
    if (memberCwd !== null) member.cwd = memberCwd;
    const claimed = leadProcessOf(raw.leadProcess);
    if (claimed) member.leadProcess = claimed;
    members.push(member);
  });
  // Older team files name no lead id that matches; the agent type still says who leads.
  if (!leadFound) for (const m of members) m.lead = m.role === 'team-lead';
  // The lead's process as the team file records it (a key of the team; a member's own wins).
  const teamProcess = leadProcessOf(json.leadProcess);
  if (teamProcess) for (const m of members) if (m.lead && !m.leadProcess) m.leadProcess = teamProcess;

  return {
    team: {
      name,
      configFile: file,
      tasksDir,
      description: text(json.description) || null,
      createdAt: toIso(json.createdAt),
      cwd,
      leadSessionId: sessionIdOf(json.leadSessionId),
      saysActive: rawMembers.some((raw) => isObject(raw) && raw.isActive === true),
      members,
      tasks: [],
      problems: [],
    },
    problems,
  };
}

/**
 * `leadProcess: {pid, pidSpace, claimedAt, procStart}` as Claude Code records its lead's process
 * (procStart: clock ticks since boot, as /proc/<pid>/stat's field 22). Null when any part is not
 * of that shape: a half-known process is no evidence.
 */
function leadProcessOf(v: unknown): Member['leadProcess'] | null {
  if (!isObject(v)) return null;
  const { pid, procStart, pidSpace } = v;
  const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
  const start = typeof procStart === 'string' && /^\d{1,15}$/.test(procStart) ? Number(procStart) : procStart;
  if (!whole(pid) || !whole(start)) return null;
  const space = typeof pidSpace === 'string' || typeof pidSpace === 'number' ? sanitizeLine(String(pidSpace)) : null;
  return { pid, procStart: start, pidSpace: space };
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

/** A session id as Claude Code writes one (a UUID); anything else names no transcript. */
function sessionIdOf(v: unknown): string | null {
  return typeof v === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(v) ? v : null;
}

/** `tmuxPaneId` values that name no pane and are no problem: an in-process member, a lead running in-process. */
const NO_PANE = new Set(['', 'in-process', 'leader']);

function paneIdOf(raw: unknown, file: string, member: string, problems: Problem[]): string | null {
  if (typeof raw !== 'string' || NO_PANE.has(raw)) return null;
  if (PANE_ID.test(raw)) return raw;
  problems.push({ file, message: `member ${member}: tmuxPaneId "${sanitizeLine(raw).slice(0, 40)}" is not a pane id` });
  return null;
}

function stateOf(raw: Record<string, unknown>): MemberState {
  const backend = typeof raw.backendType === 'string' ? raw.backendType.toLowerCase() : '';
  // `isActive` is not read: Claude Code leaves it true on panes long dead; tmux says what lives.
  return raw.tmuxPaneId === 'in-process' || raw.tmuxPaneId === 'leader' || backend === 'in-process'
    ? 'in-process'
    : 'unknown';
}

/** Parses one task file; an owner of '' means nobody. */
export function parseTask(json: unknown, file: string, team: string): { task: Task | null; problems: Problem[] } {
  const problems: Problem[] = [];
  return { task: taskOf(json, file, team, problems), problems };
}

/** parseTask adding its problems to `problems`: nothing is made per task but the task. */
function taskOf(json: unknown, file: string, team: string, problems: Problem[]): Task | null {
  if (!isObject(json)) {
    problems.push({ file, message: 'task is not a JSON object' });
    return null;
  }
  const id = idText(json.id) || sanitizeLine(path.basename(file, '.json'));
  if (typeof json.subject !== 'string') problems.push({ file, message: `task ${id} has no subject` });
  const blockedBy: string[] = [];
  if (Array.isArray(json.blockedBy)) {
    for (const raw of json.blockedBy as unknown[]) {
      const b = idText(raw);
      if (b !== '') blockedBy.push(b);
    }
  }
  return {
    id,
    subject: text(json.subject),
    status: text(json.status) || 'unknown',
    owner: text(json.owner) || null,
    blockedBy,
    team,
  };
}

/** A run of its own for a team that belongs to no tina run. */
export function teamRun(team: Team, settings: ReadSettings): Run {
  const root = team.cwd !== null && path.isAbsolute(team.cwd) && cwdIsDir(team.cwd, settings) ? team.cwd : null;
  const run = emptyRun('claude-team', team.name, root, path.dirname(team.configFile));
  const ended = quietLongEnough(team, settings.now);
  // Liveness and activity make new members, never change them: only the lead's context is written
  // on a copy, so a run that ended (no context read) shares its team's members.
  run.members = ended ? [...team.members] : team.members.map((m) => ({ ...m }));
  // A task is never changed once read (members are: liveness), so the run shares its team's.
  run.tasks = [...team.tasks];
  run.problems = [...team.problems];
  run.status = teamStatus(team.tasks, team.saysActive === true);
  // Liveness clears this when a member's pane is alive.
  if (ended) run.ended = true;
  else leadContext(run, team, settings);
  return run;
}

/** Whether each team cwd is a folder, looked at once per read of the box (one settings object). */
const cwdDirs = new WeakMap<ReadSettings, Map<string, boolean>>();

/** isDir once per cwd and read: 10,000 teams on a box share a few dozen cwds. */
function cwdIsDir(cwd: string, settings: ReadSettings): boolean {
  let known = cwdDirs.get(settings);
  if (!known) cwdDirs.set(settings, (known = new Map()));
  let dir = known.get(cwd);
  if (dir === undefined) known.set(cwd, (dir = isDir(cwd)));
  return dir;
}

/**
 * The lead's context from its transcript: on the lead (`context`, `tokens`), as the run's CONTEXT,
 * and past the threshold a `context` gate, so the checkpoint cycle is offered as for tina.
 */
function leadContext(run: Run, team: Team, settings: ReadSettings): void {
  const lead = run.members.find((m) => m.lead);
  if (!lead || !team.leadSessionId || team.cwd === null || !path.isAbsolute(team.cwd)) return;
  // teams/<name>/config.json lives in the Claude config dir, which holds projects/ too.
  const claudeDir = path.dirname(path.dirname(path.dirname(team.configFile)));
  const file = transcriptFile(claudeDir, team.cwd, team.leadSessionId);
  const usage = transcriptUsage(file);
  if (!usage) return;
  lead.context = { usedPct: usage.usedPct, tokens: usage.used, window: usage.window };
  lead.tokens = usage.tokens;
  const threshold = settings.contextThresholdPct;
  run.context = { usedPct: usage.usedPct, threshold };
  if (usage.usedPct < threshold) return;
  run.warnings = [...(run.warnings ?? []), `context ${usage.usedPct}% ≥ ${threshold}% threshold`];
  run.gates.push({
    id: 'context',
    kind: 'context',
    state: 'pending',
    since: null,
    grantable: false,
    title: `Context ${usage.usedPct}% ≥ ${threshold}% — checkpoint due`,
    file,
    body: `${lead.name}'s transcript: ${usage.used} of ${usage.window} tokens in use at its last turn.\nThe checkpoint cycle saves a handoff, clears and rehydrates the lead.`,
  });
}

/**
 * A team's status by its tasks. With none, a member the config calls active (`isActive: true`) may
 * be working or not: unknown, until its pane, hooks or session file say (statusWithActivity).
 */
function teamStatus(tasks: Task[], saysActive: boolean): Run['status'] {
  if (tasks.some((t) => t.status === 'in_progress')) return 'running';
  if (tasks.length > 0 && tasks.every((t) => t.status === 'completed')) return 'complete';
  return tasks.length === 0 && saysActive ? 'unknown' : 'idle';
}

/**
 * Tasks in compareIds order, each id's number worked out once: a team's files are listed by name
 * ("1", "10", "100", "101", …), so nearly every pair is compared.
 */
function sortByIds(tasks: Task[]): Task[] {
  // Claude Code numbers its tasks: each id and its place packed in one number, sorted natively.
  const packed = new Float64Array(tasks.length);
  for (let i = 0; i < tasks.length; i++) {
    const n = idNumber(tasks[i]?.id ?? '');
    if (n === null || !Number.isInteger(n) || n < 0 || n >= ID_LIMIT || tasks.length > PLACE_LIMIT)
      return sortByIdsSlowly(tasks);
    packed[i] = n * PLACE_LIMIT + i;
  }
  packed.sort();
  // A plain loop: Array.from over a typed array walks it as an iterator (~6 ms for 10,000 tasks).
  const sorted = new Array<Task>(tasks.length);
  for (let i = 0; i < packed.length; i++) sorted[i] = tasks[(packed[i] as number) % PLACE_LIMIT] as Task;
  return sorted;
}

/** What the packing above holds exactly: ids below 2^32, places below 2^20 (2^52 in all). */
const ID_LIMIT = 2 ** 32;
const PLACE_LIMIT = 2 ** 20;

function sortByIdsSlowly(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => compareIds(a.id, b.id));
}

/** An id's value as a number, or null when it is not one. */
function idNumber(id: string): number | null {
  const n = Number(id);
  return id.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** Orders ids numerically where both are numbers ("2" before "10"), else as text. */
export function compareIds(a: string, b: string): number {
  const na = idNumber(a);
  const nb = idNumber(b);
  if (na !== null && nb !== null) return na - nb;
  if ((na === null) !== (nb === null)) return na !== null ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function text(v: unknown): string {
  return typeof v === 'string' ? sanitizeLine(v).trim() : '';
}

function idText(v: unknown): string {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return text(v);
}
