import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemberSchema, TaskSchema } from '../../src/model.js';
import { parseTask, parseTeamConfig } from '../../src/sources/claude-teams.js';

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/samples/claude-teams');
const RUNS = { numRuns: 1000 };
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
  }
  return out;
}

function checkTeam(json: unknown): void {
  const { team, problems } = parseTeamConfig(json, '/c/teams/t/config.json', '/c/tasks/t');
  expect(Array.isArray(problems)).toBe(true);
  if (team === null) expect(problems.length).toBeGreaterThan(0);
  else for (const m of team.members) MemberSchema.parse(m);
  for (const s of strings({ team, problems })) expect(s).not.toMatch(CONTROL);
}

function checkTask(json: unknown): void {
  const { task, problems } = parseTask(json, '/c/tasks/t/1.json', 't');
  if (task === null) expect(problems.length).toBeGreaterThan(0);
  else TaskSchema.parse(task);
  for (const s of strings({ task, problems })) expect(s).not.toMatch(CONTROL);
}

const files = fs.readdirSync(SAMPLES);
const texts = (prefix: string): string[] => files.filter((f) => f.startsWith(prefix)).map((f) => fs.readFileSync(path.join(SAMPLES, f), 'utf8'));
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('team-lead', 'in-process', '%1', '%12; kill', '', 'completed', 'in_progress', '\u001b[2J', 'a\u0007b', '\u009b1m', '2026-01-30T10:00:00Z'),
);
const value = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
const member = fc.record(
  { name: value, agentId: value, agentType: value, model: value, tmuxPaneId: value, backendType: value, cwd: value, joinedAt: value },
  { requiredKeys: [] },
);
const teamShaped = fc.record(
  { name: value, description: value, createdAt: value, leadAgentId: value, members: fc.oneof(fc.array(fc.oneof(member, value), { maxLength: 6 }), value) },
  { requiredKeys: [] },
);
const taskShaped = fc.record(
  { id: value, subject: value, status: value, owner: value, blockedBy: fc.oneof(fc.array(value, { maxLength: 4 }), value), metadata: value },
  { requiredKeys: [] },
);
/** A real sample cut off somewhere, parsed when what is left is still JSON. */
const truncatedJson = (prefix: string) =>
  fc.tuple(fc.constantFrom(...texts(prefix)), fc.double({ min: 0, max: 1, noNaN: true })).map(([t, f]) => {
    try {
      return JSON.parse(t.slice(0, Math.floor(t.length * f))) as unknown;
    } catch {
      return t.slice(0, Math.floor(t.length * f));
    }
  });

describe('parseTeamConfig never throws and returns only printable text', () => {
  it('on any value', () => fc.assert(fc.property(fc.anything(), checkTeam), RUNS));
  it('on team-shaped objects with odd fields', () => fc.assert(fc.property(teamShaped, checkTeam), RUNS));
  it('on truncated real configs', () => fc.assert(fc.property(truncatedJson('team-config'), checkTeam), RUNS));
});

describe('parseTask never throws and returns only printable text', () => {
  it('on any value', () => fc.assert(fc.property(fc.anything(), checkTask), RUNS));
  it('on task-shaped objects with odd fields', () => fc.assert(fc.property(taskShaped, checkTask), RUNS));
  it('on truncated real tasks', () => fc.assert(fc.property(truncatedJson('task.'), checkTask), RUNS));
});
