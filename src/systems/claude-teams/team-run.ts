/**
 * A Claude Code team that belongs to no tina run as a run of its own (`claude-team:<name>`): its
 * members and tasks, its status by the tasks, and its lead's context from the lead's transcript.
 */
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Run, Task } from '../../model/model.js';
import { isDir } from '../../files/look.js';
import { transcriptFile, transcriptUsage } from './transcript.js';
import { quietLongEnough } from './teams.js';
import type { ReadSettings, Team } from '../types.js';

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
    body:
      `${lead.name}'s transcript: ${usage.used} of ${usage.window} tokens in use at its last ` +
      `turn.\nThe checkpoint cycle saves a handoff, clears and rehydrates the lead.`,
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
