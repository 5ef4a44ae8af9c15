import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import { compareIds, parseTask } from '../../src/systems/claude-teams/tasks.js';
import { parseTeamConfig } from '../../src/systems/claude-teams/team-config.js';
import { teamRun } from '../../src/systems/claude-teams/team-run.js';
import { readTeams, teamChangedAt } from '../../src/systems/claude-teams/teams.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { Team } from '../../src/systems/types.js';
import { copyFixtureTree, readFixture, tempDirsPerTest } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

const SETTINGS = { ...DEFAULT_READ_SETTINGS, now: Date.parse('2026-02-01T12:00:00Z') };

function sample(name: string): unknown {
  return JSON.parse(readFixture(`samples/claude-teams/${name}`));
}

function config(name: string): Team {
  const file = `/c/teams/${name}/config.json`;
  const { team, problems } = parseTeamConfig(sample(`team-config.${name}.json`), file, `/c/tasks/${name}`);
  expect(problems).toEqual([]);
  if (!team) throw new Error('expected a team');
  return team;
}

describe('parseTeamConfig on the real samples', () => {
  it('reads the orchestration team: lead by name, pane id, model, agent type, created time', () => {
    const team = config('my-feature-orchestration');
    expect(team.name).toBe('my-feature-orchestration');
    expect(team.description).toBe('Orchestration team for my-feature');
    expect(team.createdAt).toBe('2024-01-30T20:00:00.000Z');
    expect(team.cwd).toBe('/Users/joshua/Projects/tina');
    expect(team.configFile).toBe('/c/teams/my-feature-orchestration/config.json');
    expect(team.tasksDir).toBe('/c/tasks/my-feature-orchestration');
    expect(team.members).toEqual([
      {
        name: 'team-lead',
        role: 'orchestrator',
        model: 'claude-opus-4',
        paneId: '%1',
        state: 'unknown',
        lead: true,
        team: 'my-feature-orchestration',
        // The evidence its pane is checked against.
        joinedAt: 1706644800000,
        cwd: '/Users/joshua/Projects/tina',
        // The session its hook events name.
        sessionId: 'session-abc-123',
      },
    ]);
  });

  it('finds the lead by agentId and marks in-process members', () => {
    const team = config('test-orchestration');
    const [lead, validator] = team.members;
    expect(lead).toMatchObject({ name: 'team-lead', lead: true, paneId: null, state: 'unknown', role: 'team-lead' });
    expect(validator).toMatchObject({
      name: 'validator',
      lead: false,
      paneId: null,
      state: 'in-process',
      role: 'member',
    });
    expect(config('test-phase-1').members.map((m) => m.state)).toEqual(['unknown', 'in-process']);
  });

  it('reads members with no tmuxPaneId and members with pane ids', () => {
    const noPanes = config('test-feature-orchestration');
    expect(noPanes.members.map((m) => [m.name, m.paneId, m.lead])).toEqual([
      ['team-lead', null, true],
      ['worker-1', null, false],
    ]);
    const panes = config('test-feature.tmuxPaneIds');
    expect(panes.members.map((m) => [m.name, m.paneId, m.role])).toEqual([
      ['team-lead', '%1', 'team-lead'],
      ['worker-1', '%2', 'implementer'],
    ]);
  });
});

describe('parseTeamConfig on odd input', () => {
  it('falls back to agentType team-lead when no member matches leadAgentId', () => {
    const { team } = parseTeamConfig(
      {
        name: 't',
        members: [
          { name: 'boss', agentType: 'team-lead' },
          { name: 'w', agentType: 'worker' },
        ],
      },
      '/c/teams/t/config.json',
      '/c/tasks/t',
    );
    expect(team?.members.map((m) => m.lead)).toEqual([true, false]);
  });

  it('treats backendType in-process as in-process even with an empty pane id', () => {
    const { team } = parseTeamConfig(
      { name: 't', members: [{ name: 'r', tmuxPaneId: '', backendType: 'in-process' }] },
      '/f',
      '/t',
    );
    expect(team?.members[0]?.state).toBe('in-process');
    expect(team?.members[0]?.paneId).toBeNull();
  });

  it('refuses a pane id that is not one, with a problem', () => {
    const { team, problems } = parseTeamConfig(
      { name: 't', members: [{ name: 'w', tmuxPaneId: '%1; kill-server' }] },
      '/f',
      '/t',
    );
    expect(team?.members[0]?.paneId).toBeNull();
    expect(problems).toEqual([{ file: '/f', message: expect.stringContaining('is not a pane id') }]);
  });

  it('takes the name from the folder when the config has none', () => {
    const { team } = parseTeamConfig({ members: [] }, '/c/teams/from-dir/config.json', '/c/tasks/from-dir');
    expect(team?.name).toBe('from-dir');
  });

  it('returns a problem, not a team, for non-objects; and a problem for members that are not a list', () => {
    for (const bad of [null, 3, 'x', [1, 2]]) {
      const r = parseTeamConfig(bad, '/f', '/t');
      expect(r.team).toBeNull();
      expect(r.problems).toEqual([{ file: '/f', message: 'team config is not a JSON object' }]);
    }
    const r = parseTeamConfig({ name: 't', members: { a: 1 } }, '/f', '/t');
    expect(r.team?.members).toEqual([]);
    expect(r.problems[0]?.message).toContain('not a list');
    const r2 = parseTeamConfig({ name: 't', members: [42, { name: 'ok' }] }, '/f', '/t');
    expect(r2.team?.members.map((m) => m.name)).toEqual(['ok']);
    expect(r2.problems[0]?.message).toBe('member 1 is not an object');
  });

  it('strips escape sequences from every string it returns', () => {
    const { team } = parseTeamConfig(
      {
        name: 'evil\u001b]0;pwned\u0007-team',
        description: 'desc\u001b[2J',
        members: [{ name: 'w\u001b[31mred', agentType: 'x\u009b1m', model: 'm\u0007', cwd: '/tmp/\u001b[1mx' }],
      },
      '/f',
      '/t',
    );
    expectPrintable(team);
    expect(team?.name).toBe('evil-team');
    expect(team?.members[0]?.name).toBe('wred');
  });
});

describe('parseTask', () => {
  it('reads the real samples: owner, status, blockedBy, team', () => {
    const { task, problems } = parseTask(sample('task.session-abc.2.json'), '/t/2.json', 'session-abc');
    expect(problems).toEqual([]);
    expect(task).toEqual({
      id: '2',
      subject: 'setup-worktree',
      status: 'completed',
      owner: 'worktree-setup',
      blockedBy: ['1'],
      team: 'session-abc',
    });
    expect(parseTask(sample('task.test-feature-orchestration.2.json'), '/t/2.json', 'x').task?.status).toBe(
      'in_progress',
    );
  });

  it('turns an empty owner into null, numbers into strings, and takes the id from the file name', () => {
    const { task } = parseTask(
      { subject: 's', status: 'pending', owner: '', blockedBy: [1, '2', null] },
      '/t/7.json',
      'x',
    );
    expect(task).toMatchObject({ id: '7', owner: null, blockedBy: ['1', '2'] });
    expect(parseTask({ id: 12, subject: 's' }, '/t/12.json', 'x').task).toMatchObject({ id: '12', status: 'unknown' });
  });

  it('reports a task with no subject, and non-objects', () => {
    expect(parseTask({ id: '1', status: 'pending' }, '/t/1.json', 'x').problems[0]?.message).toBe(
      'task 1 has no subject',
    );
    expect(parseTask([], '/t/1.json', 'x')).toEqual({
      task: null,
      problems: [{ file: '/t/1.json', message: 'task is not a JSON object' }],
    });
  });

  it('sorts ids numerically, numbers before words', () => {
    expect(['10', 'b', '2', 'a', '1'].sort(compareIds)).toEqual(['1', '2', '10', 'a', 'b']);
  });
});

describe('readTeams and teamRun on a real directory', () => {
  const tempDir = tempDirsPerTest('tower-teams-');
  let tmp: string;
  let claude: string;
  beforeEach(() => {
    tmp = tempDir();
    claude = path.join(tmp, 'claude');
    copyFixtureTree('claude', claude, tmp);
  });

  it('reads every team with its tasks, sorted numerically, skipping lock files', () => {
    const { teams, problems } = readTeams(claude);
    expect(problems).toEqual([]);
    expect(teams.map((t) => t.name)).toEqual([
      'broken-team',
      'my-feature-orchestration',
      'my-feature-phase-2',
      'phase-1-execution',
      'solo-team',
      'test-orchestration',
    ]);
    const phase2 = teams.find((t) => t.name === 'my-feature-phase-2');
    expect(phase2?.tasks.map((t) => t.id)).toEqual(['1', '2', '10']);
    expect(phase2?.tasks.every((t) => t.team === 'my-feature-phase-2')).toBe(true);
    expect(phase2?.members.map((m) => [m.name, m.paneId, m.state, m.lead])).toEqual([
      ['team-lead', '%11', 'unknown', true],
      ['worker-1', '%12', 'unknown', false],
      ['spec-reviewer', null, 'in-process', false],
      ['quality-reviewer', null, 'in-process', false],
    ]);
    expect(teams.find((t) => t.name === 'my-feature-orchestration')?.tasks).toHaveLength(3);
  });

  it('keeps a team whose config is half-written, with the problem', () => {
    const broken = readTeams(claude).teams.find((t) => t.name === 'broken-team');
    expect(broken?.members).toEqual([]);
    expect(broken?.problems).toEqual([
      { file: path.join(claude, 'teams/broken-team/config.json'), message: expect.stringContaining('invalid JSON') },
    ]);
  });

  it('turns empty, truncated, binary, huge and directory task files into problems and reads the rest', () => {
    const dir = path.join(claude, 'tasks/solo-team');
    fs.writeFileSync(path.join(dir, '3.json'), '');
    fs.writeFileSync(path.join(dir, '4.json'), '{"id": "4", "subj');
    fs.writeFileSync(path.join(dir, '5.json'), Buffer.from([0x7b, 0x00, 0x7d]));
    fs.writeFileSync(path.join(dir, '6.json'), `{"id":"6","subject":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    fs.mkdirSync(path.join(dir, '7.json'));
    fs.writeFileSync(
      path.join(dir, '8.json'),
      '{"id":"8","subject":"\\u001b[2Jclear \\u001b]0;title\\u0007me","status":"pending"}',
    );
    const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
    expect(solo?.tasks.map((t) => t.id)).toEqual(['1', '2', '8']);
    expect(solo?.tasks[2]?.subject).toBe('clear me');
    const messages = (solo?.problems ?? []).map((p) => `${path.basename(p.file ?? '')}: ${p.message}`);
    expect(messages).toEqual([
      '3.json: file is empty',
      expect.stringMatching(/^4\.json: invalid JSON/),
      '5.json: file is binary, expected text',
      expect.stringMatching(/^6\.json: file is too large/),
      '7.json: not a regular file: it is a directory',
    ]);
  });

  it('reads task files of every size around its read buffer, up to the limit and not past it', () => {
    const dir = path.join(claude, 'tasks/solo-team');
    // The JSON text of a task whose file is exactly `bytes` long.
    const taskOfSize = (id: string, bytes: number): string => {
      const head = `{"id":"${id}","subject":"`;
      return `${head}${'s'.repeat(bytes - head.length - 2)}"}`;
    };
    const sizes: Record<string, number> = {
      '10': 65_535,
      '11': 65_536,
      '12': 65_537,
      '13': 262_144,
      '14': 1_000_003,
      '15': 4 * 1024 * 1024,
    };
    for (const [id, bytes] of Object.entries(sizes))
      fs.writeFileSync(path.join(dir, `${id}.json`), taskOfSize(id, bytes));
    fs.writeFileSync(path.join(dir, '16.json'), taskOfSize('16', 4 * 1024 * 1024 + 1));
    const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
    const read = Object.fromEntries((solo?.tasks ?? []).map((t) => [t.id, t.subject.length]));
    for (const [id, bytes] of Object.entries(sizes))
      expect(read[id], `${bytes} bytes`).toBe(bytes - `{"id":"${id}","subject":"`.length - 2);
    expect(read['16']).toBeUndefined();
    expect((solo?.problems ?? []).map((p) => `${path.basename(p.file ?? '')}: ${p.message}`)).toEqual([
      `16.json: file is too large (${4 * 1024 * 1024 + 1} bytes, limit ${4 * 1024 * 1024})`,
    ]);
  });

  it('reads a task file that is a link the careful way, and never waits on one that is a FIFO', () => {
    const dir = path.join(claude, 'tasks/solo-team');
    const elsewhere = path.join(tmp, 'elsewhere.json');
    fs.writeFileSync(elsewhere, '{"id":"20","subject":"linked","status":"pending"}');
    fs.symlinkSync(elsewhere, path.join(dir, '20.json'));
    fs.symlinkSync(path.join(tmp, 'gone.json'), path.join(dir, '21.json'));
    execFileSync('mkfifo', [path.join(dir, '22.json')]);
    const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
    expect(solo?.tasks.map((t) => [t.id, t.subject])).toEqual([
      ['1', expect.any(String)],
      ['2', expect.any(String)],
      ['20', 'linked'],
    ]);
    expect((solo?.problems ?? []).map((p) => `${path.basename(p.file ?? '')}: ${p.message}`)).toEqual([
      '21.json: file is missing',
      '22.json: not a regular file: it is a FIFO (named pipe)',
    ]);
  });

  it("lists a team's tasks in id order, numbers before words, whatever order their files list in", () => {
    const dir = path.join(claude, 'tasks/solo-team');
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
    const ids = ['100', '10', 'b', '2', '1.5', 'a', '1', '20', ' ', '9'];
    ids.forEach((id, i) =>
      fs.writeFileSync(path.join(dir, `f${i}.json`), JSON.stringify({ id, subject: `task ${id}` })),
    );
    const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
    // A blank id reads as the file's name.
    expect(solo?.tasks.map((t) => t.id)).toEqual(['1', '1.5', '2', '9', '10', '20', '100', 'a', 'b', 'f8']);
    expect(solo?.tasks.map((t) => t.id)).toEqual([...(solo?.tasks.map((t) => t.id) ?? [])].sort(compareIds));
  });

  it('orders whole-number ids as compareIds does, equal ids in the order their files list', () => {
    const dir = path.join(claude, 'tasks/solo-team');
    for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
    for (const ids of [
      ['10', '2', '007', '2', '1', '300', '1.0', '0'],
      ['5', '4294967296', '3', '4294967295'],
    ]) {
      for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
      ids.forEach((id, i) =>
        fs.writeFileSync(path.join(dir, `f${i}.json`), JSON.stringify({ id, subject: `file ${i}` })),
      );
      const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
      const expected = ids.map((id, i) => ({ id, subject: `file ${i}` })).sort((a, b) => compareIds(a.id, b.id));
      expect(solo?.tasks.map((t) => ({ id: t.id, subject: t.subject }))).toEqual(expected);
    }
  });

  it('skips files and folders whose names hold control characters, saying so', () => {
    fs.writeFileSync(path.join(claude, 'tasks/solo-team/\u001b[2J.json'), '{"id":"9","subject":"s"}');
    fs.mkdirSync(path.join(claude, 'teams/\u001b[31mred'));
    const { teams, problems } = readTeams(claude);
    expect(teams.some((t) => t.name.includes('red'))).toBe(false);
    expect(problems.map((p) => p.message)).toEqual(['team folder name contains control characters; skipped']);
    const solo = teams.find((t) => t.name === 'solo-team');
    expect(solo?.problems.map((p) => p.message)).toEqual(['task file name contains control characters; skipped']);
    expectPrintable({ teams, problems });
  });

  it('reads a team folder that is a link, passes over a file among the folders, and dates every team as teamChangedAt does', () => {
    const outside = path.join(tmp, 'elsewhere', 'linked-team');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'config.json'), JSON.stringify({ name: 'linked-team', members: [] }));
    fs.symlinkSync(outside, path.join(claude, 'teams', 'linked-team'));
    fs.writeFileSync(path.join(claude, 'teams', 'stray.json'), '{}');
    // A config that is a folder, and a team with no task folder: dated by what is there.
    fs.mkdirSync(path.join(claude, 'teams', 'odd-team', 'config.json'), { recursive: true });
    const old = new Date('2026-01-01T00:00:00Z');
    fs.utimesSync(path.join(claude, 'teams', 'odd-team', 'config.json'), old, old);
    const { teams, problems } = readTeams(claude);
    expect(problems).toEqual([]);
    const names = teams.map((t) => t.name);
    expect(names).toContain('linked-team');
    expect(names).not.toContain('stray.json');
    expect(teams.find((t) => t.name === 'odd-team')?.changedAt).toBe(old.getTime());
    for (const team of teams) {
      expect(team.changedAt, team.name).not.toBeNull();
      expect(team.changedAt, team.name).toBe(teamChangedAt(team));
    }
  });

  it('returns nothing, and no problem, for a config dir without teams', () => {
    expect(readTeams(path.join(tmp, 'nowhere'))).toEqual({ teams: [], problems: [] });
  });

  it('makes a claude-team run: complete when all tasks are done, root from an existing cwd', () => {
    const solo = readTeams(claude).teams.find((t) => t.name === 'solo-team');
    if (!solo) throw new Error('no solo-team');
    const run = teamRun(solo, SETTINGS);
    expect(RunSchema.parse(run)).toEqual(run);
    expect(run).toMatchObject({
      id: 'claude-team:solo-team',
      system: 'claude-team',
      name: 'solo-team',
      root: tmp,
      status: 'complete',
      stateDir: path.join(claude, 'teams/solo-team'),
      phase: null,
    });
    expect(run.members.map((m) => m.name)).toEqual(['lead', 'helper']);
    expect(run.tasks.map((t) => t.blockedBy)).toEqual([[], ['1']]);
  });

  it('is running with a task in progress, idle without tasks, and has no root for a relative or missing cwd', () => {
    const { teams } = readTeams(claude);
    const test = teams.find((t) => t.name === 'test-orchestration');
    const broken = teams.find((t) => t.name === 'broken-team');
    const orch = teams.find((t) => t.name === 'my-feature-orchestration');
    if (!test || !broken || !orch) throw new Error('missing team');
    expect(teamRun(test, SETTINGS)).toMatchObject({ status: 'running', root: null });
    expect(teamRun(broken, SETTINGS)).toMatchObject({ status: 'idle', root: null, problems: broken.problems });
    // "/Users/joshua/Projects/tina" does not exist here.
    expect(teamRun(orch, SETTINGS)).toMatchObject({ status: 'complete', root: null });
    const none = teamRun({ ...orch, tasks: [] }, SETTINGS);
    expect(none.status).toBe('idle');
  });
});
