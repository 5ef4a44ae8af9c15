/**
 * A box that has run Claude Code teams for months: Claude Code never deletes team and task folders,
 * so most of the `teams` are long over (files untouched for weeks, panes gone) and a few work now.
 * Real files in a temp dir, shaped as Claude Code writes them (config.json with members and pane
 * ids, a task folder of numbered task files with its `.lock` and `.highwatermark`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './box.js';

export interface TeamsBox {
  dir: string;
  claudeDir: string;
  /** The folder names of the teams at work now (first in the list), then of the ended ones. */
  active: string[];
  ended: string[];
  /** The project folders the teams work in (their `cwd`). */
  projects: string[];
  remove(): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Writes `teams` teams, the first `active` of them at work now (a task in progress, files new). */
export function buildTeamsBox(opts: {
  teams: number;
  active?: number;
  tasksPerTeam?: number;
  projects?: number;
}): TeamsBox {
  const dir = tempDir('tower-teams-');
  const claudeDir = path.join(dir, 'claude');
  const activeCount = Math.min(opts.active ?? 5, opts.teams);
  const tasksPerTeam = opts.tasksPerTeam ?? 4;
  const projects = Array.from({ length: opts.projects ?? 20 }, (_, i) =>
    path.join(dir, 'projects', `project-${String(i + 1).padStart(2, '0')}`),
  );
  for (const p of projects) fs.mkdirSync(p, { recursive: true });
  const active: string[] = [];
  const ended: string[] = [];
  const old = new Date(Date.now() - 40 * DAY_MS);
  let pane = 100;
  for (let i = 1; i <= opts.teams; i++) {
    const name = `team-${String(i).padStart(5, '0')}`;
    const isActive = i <= activeCount;
    (isActive ? active : ended).push(name);
    const cwd = projects[i % projects.length] as string;
    const teamDir = path.join(claudeDir, 'teams', name);
    const tasksDir = path.join(claudeDir, 'tasks', name);
    fs.mkdirSync(teamDir, { recursive: true });
    fs.mkdirSync(tasksDir, { recursive: true });
    const members = ['team-lead', 'implementer', 'reviewer'].map((m, k) => ({
      agentId: `${m}@${name}`,
      name: m,
      agentType: k === 0 ? 'team-lead' : m,
      model: 'claude-sonnet-4-5',
      joinedAt: 1760000000000 + i,
      tmuxPaneId: `%${pane++}`,
      cwd,
      backendType: 'tmux',
    }));
    const config = {
      name,
      description: `Work item ${i}`,
      createdAt: 1760000000000 + i,
      leadAgentId: `team-lead@${name}`,
      leadSessionId: `0000${String(i).padStart(4, '0')}-1111-2222-3333-444455556666`,
      members,
    };
    fs.writeFileSync(path.join(teamDir, 'config.json'), JSON.stringify(config, null, 2));
    for (let t = 1; t <= tasksPerTeam; t++) {
      const status = isActive ? (t === 1 ? 'completed' : t === 2 ? 'in_progress' : 'pending') : 'completed';
      const task = {
        id: String(t),
        subject: `Step ${t} of ${name}`,
        description: 'Do the thing, then check it.',
        activeForm: `Doing step ${t}`,
        status,
        owner: 'implementer',
        blocks: [],
        blockedBy: t > 1 ? [String(t - 1)] : [],
      };
      fs.writeFileSync(path.join(tasksDir, `${t}.json`), JSON.stringify(task, null, 2));
    }
    fs.writeFileSync(path.join(tasksDir, '.lock'), '');
    fs.writeFileSync(path.join(tasksDir, '.highwatermark'), String(tasksPerTeam));
    if (!isActive) {
      for (const d of [teamDir, tasksDir]) {
        for (const f of fs.readdirSync(d)) fs.utimesSync(path.join(d, f), old, old);
        fs.utimesSync(d, old, old);
      }
    }
  }
  return { dir, claudeDir, active, ended, projects, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Rewrites task 2 of `team` with a new subject (written aside, then renamed into place). */
export function touchTask(box: TeamsBox, team: string, subject: string): void {
  const file = path.join(box.claudeDir, 'tasks', team, '2.json');
  const task = {
    id: '2',
    subject,
    description: 'Do the thing, then check it.',
    activeForm: 'Doing step 2',
    status: 'in_progress',
    owner: 'implementer',
    blocks: [],
    blockedBy: ['1'],
  };
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(task, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}
