/**
 * The quirks of real Claude Code team files (fixture: test/fixtures/claude-quirks, README there cites
 * the source of each): in-process leads, members removed when done, ghost in-process members of a
 * crashed lead, `isActive` that lies, folder names that differ from team names, and the non-task
 * entries of task folders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Run, Snapshot } from '../../src/model/model.js';
import { readSnapshot } from '../../src/store/snapshot.js';
import { teamRun } from '../../src/systems/claude-teams/team-run.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { Team } from '../../src/systems/types.js';
import { copyFixtureTree, joinedNow, tempDirsPerTest } from '../helpers/fixtures.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';

const settings = { ...DEFAULT_READ_SETTINGS, now: Date.parse('2026-02-11T12:00:00Z') };
const tempDir = tempDirsPerTest('tower-quirks-');
let tmp: string;
let claudeDir: string;

beforeEach(() => {
  tmp = tempDir();
  claudeDir = path.join(tmp, 'claude');
  copyFixtureTree('claude-quirks', claudeDir, tmp);
});

function team(name: string): Team {
  const r = readTeams(claudeDir);
  const t = r.teams.find((x) => x.name === name);
  if (!t) throw new Error(`no team ${name} in ${r.teams.map((x) => x.name).join(', ')}`);
  return t;
}

function setLeadPane(pane: string): void {
  const file = path.join(claudeDir, 'teams', 'release-notes', 'config.json');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('%LEAD_PANE', pane));
}

function runOf(s: Snapshot, id: string): Run {
  const run = s.runs.find((r) => r.id === id);
  if (!run) throw new Error(`no ${id} in ${s.runs.map((r) => r.id).join(', ')}`);
  return run;
}

describe('Claude Code team file quirks', () => {
  it('reads a lead with tmuxPaneId "leader" / backendType in-process as in-process, not a problem', () => {
    const t = team('docs-sweep');
    expect(t.problems).toEqual([]);
    expect(t.members.map((m) => [m.name, m.lead, m.state, m.paneId])).toEqual([
      ['team-lead', true, 'in-process', null],
      ['reader', false, 'in-process', null],
    ]);
    expect(teamRun(t, settings).problems).toEqual([]);
  });

  it('keeps the tasks of a member removed when done, with its name as owner, and no problem', () => {
    setLeadPane('%5');
    const run = teamRun(team('release-notes'), settings);
    expect(run.members.map((m) => m.name)).toEqual(['team-lead', 'writer-1']);
    expect(run.tasks.find((t) => t.id === '2')).toMatchObject({ owner: 'writer-2', status: 'completed' });
    expect(run.problems).toEqual([]);
  });

  it('reads a team whose folder name differs from its name (dots become -), tasks from the folder', () => {
    const t = team('billing-phase-1.5');
    expect(path.basename(path.dirname(t.configFile))).toBe('billing-phase-1-5');
    // .lock, .highwatermark, session-*.json and the session-* folder are not tasks.
    expect(t.tasks.map((x) => x.id)).toEqual(['1', '2']);
    expect(t.problems).toEqual([]);
  });

  it('finds the tasks of such a team under its name when no folder carries the folder name', () => {
    fs.renameSync(
      path.join(claudeDir, 'tasks', 'billing-phase-1-5'),
      path.join(claudeDir, 'tasks', 'billing-phase-1.5'),
    );
    const t = team('billing-phase-1.5');
    expect(t.tasks.map((x) => x.subject)).toEqual(['Fix the review findings', 'Re-run the spec review']);
    expect(t.problems).toEqual([]);
  });
});

describe('Claude Code team liveness against tmux', () => {
  let tmux: TmuxFixture;
  beforeEach(async () => {
    tmux = await startTmux();
  });
  afterEach(async () => {
    await tmux.kill();
  });

  const snapshot = async (): Promise<Snapshot> =>
    readSnapshot({ roots: [], claudeDir, panes: await tmux.client.listPanes(), settings, home: tmp, discover: false });

  it('marks in-process members of a team whose lead pane is gone unknown, with a warning; isActive is ignored', async () => {
    // A pane id the running server does not have: the lead's pane is gone (its file still says isActive).
    setLeadPane('%9999');
    const run = runOf(await snapshot(), 'claude-team:release-notes');
    expect(run.members.map((m) => [m.name, m.state])).toEqual([
      ['team-lead', 'dead'],
      ['writer-1', 'unknown'],
    ]);
    expect(run.warnings).toEqual([
      expect.stringContaining("team release-notes: lead team-lead's pane %9999 is gone; in-process writer-1"),
    ]);
    // With the lead alive, its in-process teammate is in-process and nothing is said.
    fs.mkdirSync(path.join(tmp, 'notes'), { recursive: true });
    const pane = await tmux.newSession('notes-lead', path.join(tmp, 'notes'));
    setLeadPane(pane);
    fs.writeFileSync(
      path.join(claudeDir, 'teams', 'release-notes', 'config.json'),
      fs
        .readFileSync(path.join(claudeDir, 'teams', 'release-notes', 'config.json'), 'utf8')
        .replace('%9999', pane)
        .replace('"isActive": true', '"isActive": false'),
    );
    joinedNow(claudeDir);
    const alive = runOf(await snapshot(), 'claude-team:release-notes');
    expect(alive.members.map((m) => [m.name, m.state])).toEqual([
      ['team-lead', 'alive'],
      ['writer-1', 'in-process'],
    ]);
    expect(alive.warnings ?? []).toEqual([]);
  });
});
