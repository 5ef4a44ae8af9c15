import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { readTeam as readTeamDir } from '../../src/systems/claude-teams/teams.js';
import { buildBox, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';

let box: Box;
beforeAll(() => {
  box = buildBox();
  // Every shape readTeams knows: a half-written config, a folder with no config, a config with no tasks.
  writeFile(path.join(box.claudeDir, 'teams', 'half', 'config.json'), '{"name": "ha');
  fs.mkdirSync(path.join(box.claudeDir, 'teams', 'bare'), { recursive: true });
  writeFile(path.join(box.claudeDir, 'tasks', 'bare', '1.json'), { id: 1, subject: 'Orphan', status: 'pending' });
  writeFile(path.join(box.claudeDir, 'tasks', 'bare', '2.json'), 'not json');
  writeFile(path.join(box.claudeDir, 'teams', 'renamed-dir', 'config.json'), { name: 'other-name', members: [] });
});
afterAll(() => box.remove());

describe('readTeam (one team, for the live store)', () => {
  it('reads each team exactly as readTeams does', () => {
    const all = readTeams(box.claudeDir).teams;
    expect(all.length).toBe(6);
    for (const team of all) {
      const dirName = path.basename(path.dirname(team.configFile));
      expect(readTeamDir(box.claudeDir, dirName)).toEqual(team);
    }
  });

  it('gives null for a folder that is gone', () => {
    expect(readTeamDir(box.claudeDir, 'never-was')).toBeNull();
  });
});

describe('orderGates', () => {
  it('puts pending gates first, escalations before checkpoints, and keeps the rest in file order', async () => {
    const { orderGates } = await import('../../src/store/readers.js');
    const { emptyRun } = await import('../../src/model/model.js');
    const gate = (
      id: string,
      kind: 'checkpoint' | 'escalation' | 'context' | 'approval',
      state: 'pending' | 'granted',
    ) => ({
      id,
      kind,
      state,
      since: null,
      grantable: kind === 'checkpoint',
      title: id,
      file: null,
    });
    const run = emptyRun('harness', 'x', '/x', '/x/.harness');
    run.gates = [
      gate('a', 'checkpoint', 'granted'),
      gate('b', 'checkpoint', 'pending'),
      gate('c', 'escalation', 'pending'),
      gate('d', 'checkpoint', 'pending'),
    ];
    expect(orderGates(run).gates.map((g) => g.id)).toEqual(['c', 'b', 'd', 'a']);
  });
});
