/** Claude Code team files as Claude Code writes them: `teams/<team>/config.json` and `tasks/<team>/<id>.json`. */
import path from 'node:path';
import { writeJsonAtomic } from '../files.js';
import type { MemberSpec, TaskSeed, TeamSpec } from '../plan.js';
import { paneKey } from '../plan.js';

/** Model ids as they appear in real team configs. */
export const MODELS = { opus: 'claude-opus-4-5-20251101', sonnet: 'claude-sonnet-4-5-20250929' } as const;

/** Members of a team that work in `cwd`, each in the pane named after it in `session`. */
export function membersIn(
  cwd: string,
  session: string,
): (name: string, agentType: string, model: string) => MemberSpec {
  return (name, agentType, model) => ({ name, agentType, model, cwd, pane: { session, member: name } });
}

/** The task folder of a team. */
export function tasksDirOf(claudeDir: string, team: string): string {
  return path.join(claudeDir, 'tasks', team);
}

/** The config file of a team. */
export function teamFileOf(claudeDir: string, team: string): string {
  return path.join(claudeDir, 'teams', team, 'config.json');
}

/** Writes one file per task; `blocks` is derived from the other tasks' `blockedBy`. */
export function writeTasks(claudeDir: string, team: string, tasks: readonly TaskSeed[]): void {
  for (const t of tasks) {
    writeJsonAtomic(path.join(tasksDirOf(claudeDir, team), `${t.id}.json`), {
      id: t.id,
      subject: t.subject,
      description: t.description,
      activeForm: t.activeForm ?? null,
      status: t.status,
      owner: t.owner,
      blocks: tasks.filter((o) => o.blockedBy.includes(t.id)).map((o) => o.id),
      blockedBy: t.blockedBy,
      metadata: {},
    });
  }
}

/** Writes a team config whose members carry the real pane ids of their panes. */
export function writeTeamConfig(claudeDir: string, team: TeamSpec, paneIds: ReadonlyMap<string, string>): void {
  const lead = team.members[0];
  if (!lead) throw new Error(`team ${team.name} has no members`);
  const members = team.members.map((m, i) => {
    const paneId = m.pane === 'in-process' ? 'in-process' : paneIds.get(paneKey(m.pane.session, m.pane.member));
    if (paneId === undefined) throw new Error(`no pane was started for ${team.name}/${m.name}`);
    return {
      agentId: `${m.name}@${team.name}`,
      name: m.name,
      agentType: m.agentType,
      model: m.model,
      // The story's join time, but never before the pane the member sits in started (the panes are
      // started first): a pane newer than its member is another agent's (store/pane-evidence.ts).
      joinedAt: Math.max(team.createdAt + i * 45_000, Date.now()),
      tmuxPaneId: paneId,
      cwd: m.cwd,
      subscriptions: [],
      backendType: m.pane === 'in-process' ? 'in-process' : 'tmux',
    };
  });
  writeJsonAtomic(teamFileOf(claudeDir, team.name), {
    name: team.name,
    description: team.description,
    createdAt: team.createdAt,
    leadAgentId: `${lead.name}@${team.name}`,
    leadSessionId: team.leadSessionId,
    members,
  });
}
