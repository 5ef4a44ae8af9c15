import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberSchema, TaskSchema } from '../../src/model/schema.js';
import { parseTask } from '../../src/systems/claude-teams/tasks.js';
import { parseTeamConfig } from '../../src/systems/claude-teams/team-config.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { fieldString, fieldValue, RUNS, truncatedJson } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

function checkTeam(json: unknown): void {
  const { team, problems } = parseTeamConfig(json, '/c/teams/t/config.json', '/c/tasks/t');
  expect(Array.isArray(problems)).toBe(true);
  if (team === null) expect(problems.length).toBeGreaterThan(0);
  else for (const m of team.members) MemberSchema.parse(m);
  expectPrintable({ team, problems });
}

function checkTask(json: unknown): void {
  const { task, problems } = parseTask(json, '/c/tasks/t/1.json', 't');
  if (task === null) expect(problems.length).toBeGreaterThan(0);
  else TaskSchema.parse(task);
  expectPrintable({ task, problems });
}

/** The real samples whose names start with `prefix` (paths under test/fixtures). */
const samples = (prefix: string): string[] =>
  fs
    .readdirSync(path.join(FIXTURES, 'samples/claude-teams'))
    .filter((f) => f.startsWith(prefix))
    .map((f) => `samples/claude-teams/${f}`);
const value = fieldValue(
  fieldString(['team-lead', 'in-process', '%1', '%12; kill', 'completed', 'in_progress', '2026-01-30T10:00:00Z']),
);
const member = fc.record(
  {
    name: value,
    agentId: value,
    agentType: value,
    model: value,
    tmuxPaneId: value,
    backendType: value,
    cwd: value,
    joinedAt: value,
  },
  { requiredKeys: [] },
);
const teamShaped = fc.record(
  {
    name: value,
    description: value,
    createdAt: value,
    leadAgentId: value,
    members: fc.oneof(fc.array(fc.oneof(member, value), { maxLength: 6 }), value),
  },
  { requiredKeys: [] },
);
const taskShaped = fc.record(
  {
    id: value,
    subject: value,
    status: value,
    owner: value,
    blockedBy: fc.oneof(fc.array(value, { maxLength: 4 }), value),
    metadata: value,
  },
  { requiredKeys: [] },
);

describe('parseTeamConfig never throws and returns only printable text', () => {
  it('on any value', () => fc.assert(fc.property(fc.anything(), checkTeam), RUNS));
  it('on team-shaped objects with odd fields', () => fc.assert(fc.property(teamShaped, checkTeam), RUNS));
  it('on truncated real configs', () =>
    fc.assert(fc.property(truncatedJson(...samples('team-config')), checkTeam), RUNS));
});

describe('parseTask never throws and returns only printable text', () => {
  it('on any value', () => fc.assert(fc.property(fc.anything(), checkTask), RUNS));
  it('on task-shaped objects with odd fields', () => fc.assert(fc.property(taskShaped, checkTask), RUNS));
  it('on truncated real tasks', () => fc.assert(fc.property(truncatedJson(...samples('task.')), checkTask), RUNS));
});
