/**
 * The session team Claude Code 2.1.332 writes (captured in test/fixtures/claude-code-2.1.332): a
 * folder being deleted is no team, and a team with no tasks whose member says `isActive` is not
 * known to be idle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSnapshot } from '../../src/store/snapshot.js';
import { teamRun } from '../../src/systems/claude-teams/team-run.js';
import { readTeam, readTeams } from '../../src/systems/claude-teams/teams.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { tempDir, writeFile } from '../helpers/box.js';

const CAPTURED = path.join(import.meta.dirname, '../fixtures/claude-code-2.1.332/teams/session-team/config.json');
const settings = { ...DEFAULT_READ_SETTINGS, now: Date.now() };

function claudeDirWith(folders: Record<string, unknown>): string {
  const claudeDir = path.join(tempDir('tower-session-team-'), '.claude');
  for (const [name, config] of Object.entries(folders))
    writeFile(path.join(claudeDir, 'teams', name, 'config.json'), config as object);
  return claudeDir;
}

describe("Claude Code's session team", () => {
  const captured = JSON.parse(fs.readFileSync(CAPTURED, 'utf8')) as {
    name: string;
    members: Array<Record<string, unknown>>;
  };

  it('reads the captured session team with its lead and in-process teammate', () => {
    const claudeDir = claudeDirWith({ [captured.name]: captured });
    const { teams, problems } = readTeams(claudeDir);
    expect(problems).toEqual([]);
    expect(teams.map((t) => t.name)).toEqual([captured.name]);
    expect(teams[0]!.members.map((m) => [m.name, m.lead, m.state])).toEqual([
      ['team-lead', true, 'in-process'],
      ['worker', false, 'in-process'],
    ]);
  });

  it('does not list a folder the CLI renamed to <team>.deleted-<uuid> as it ended', () => {
    const gone = `${captured.name}.deleted-0f8c5a2e-3b1d-4c6e-9a7b-5d2e1f0a9c3b`;
    const claudeDir = claudeDirWith({ [captured.name]: captured, [gone]: captured });
    expect(readTeams(claudeDir).teams.map((t) => path.basename(path.dirname(t.configFile)))).toEqual([captured.name]);
    expect(readTeam(claudeDir, gone)).toBeNull();
    // A name that only looks alike is a team.
    expect(readTeam(claudeDirWith({ 'notes.deleted-soon': captured }), 'notes.deleted-soon')).not.toBeNull();
  });

  it('calls a team with no tasks unknown while a member says isActive, idle when none does', async () => {
    const active = {
      name: 'docs',
      leadAgentId: 'team-lead@docs',
      members: [
        { agentId: 'team-lead@docs', name: 'team-lead', agentType: 'team-lead', tmuxPaneId: '', isActive: false },
        { agentId: 'writer@docs', name: 'writer', tmuxPaneId: 'in-process', backendType: 'in-process', isActive: true },
      ],
    };
    const quiet = { ...active, name: 'quiet', members: active.members.map((m) => ({ ...m, isActive: false })) };
    const claudeDir = claudeDirWith({ docs: active, quiet });
    const teams = readTeams(claudeDir).teams;
    expect(
      teamRun(
        teams.find((t) => t.name === 'docs')!,
        settings,
      ).status,
    ).toBe('unknown');
    expect(
      teamRun(
        teams.find((t) => t.name === 'quiet')!,
        settings,
      ).status,
    ).toBe('idle');
    const snap = await readSnapshot({
      roots: [],
      claudeDir,
      panes: [],
      settings,
      home: path.dirname(claudeDir),
      discover: false,
    });
    expect(snap.runs.map((r) => [r.id, r.status])).toEqual(
      expect.arrayContaining([
        ['claude-team:docs', 'unknown'],
        ['claude-team:quiet', 'idle'],
      ]),
    );
  });
});
