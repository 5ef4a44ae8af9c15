import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTeams } from '../../src/sources/claude-teams.js';
import { readTeam as readTeamDir } from '../../src/sources/claude-teams.js';
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
