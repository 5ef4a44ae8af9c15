/**
 * A tina run on Claude Code 2.1.178 and later: the phase lead's team is the session's implicit team,
 * `teams/session-<session id>/`, not `<feature>-phase-<N>`; tina still names its tmux sessions after
 * the feature and starts the lead in the worktree.
 *
 * Shapes: the session team's config.json is a team config like any other (keys as in joshuabates/tina
 * 20a8749 tina-monitor/tests/fixtures/teams/test-phase-1/config.json, with `leadSessionId` the session
 * id), its folder named after the session (https://code.claude.com/docs/en/agent-teams, "as of
 * v2.1.178": one team per session, no TeamCreate, removed when the session exits); its tasks in
 * `tasks/session-<id>/<n>.json` (tina 20a8749 tina-monitor/tests/fixtures/tasks/session-abc/1.json).
 * The supervisor state follows tina 20a8749 tina-session/src/state/schema.rs `SupervisorState`; the
 * tmux session `tina-<feature>-phase-<P>` with cwd the worktree, tina-session/src/commands/start.rs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SnapshotSchema } from '../../src/model/schema.js';
import type { Run, Snapshot } from '../../src/model/model.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { loadMarkdownReader } from '../../src/systems/tina/markdown.js';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { ReadSettings } from '../../src/systems/types.js';
import { readSnapshot } from '../../src/store/snapshot.js';

const NOW = Date.parse('2026-06-20T12:00:00Z');
const settings: ReadSettings = { ...DEFAULT_READ_SETTINGS, now: NOW };

const OLD_SESSION = '3f1c9a52-6d0e-4c1b-9a7e-0b5d2e8f4a11';
const NEW_SESSION = 'b84e7d30-91a2-4f6c-8e55-7c3d1a0f9e62';

let tmp: string;
let claude: string;
let worktree: string;

beforeAll(() => loadMarkdownReader());

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-tina-session-')));
  claude = path.join(tmp, 'claude');
  worktree = path.join(tmp, 'repo', '.worktrees', 'auth-flow');
  write(path.join(worktree, '.claude/tina/supervisor-state.json'), {
    version: 1,
    feature: 'auth-flow',
    spec_doc: path.join(worktree, 'docs/design.md'),
    worktree_path: worktree,
    branch: 'tina/auth-flow',
    total_phases: 3,
    current_phase: 1,
    status: 'executing',
    orchestration_started_at: '2026-06-20T10:00:00Z',
    phases: { '1': { status: 'executing', execution_started_at: '2026-06-20T11:00:00Z' } },
    timing: {},
  });
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/** A team config as Claude Code writes one; a session team's folder and name are `session-<id>`. */
function team(
  folder: string,
  opts: { session: string; createdAt: number; cwd: string; workerPane?: string; leadPane?: string },
): void {
  write(path.join(claude, 'teams', folder, 'config.json'), {
    name: folder,
    description: '',
    createdAt: opts.createdAt,
    leadAgentId: `team-lead@${folder}`,
    leadSessionId: opts.session,
    members: [
      {
        agentId: `team-lead@${folder}`,
        name: 'team-lead',
        agentType: 'team-lead',
        model: 'claude-opus-4-5-20251101',
        joinedAt: opts.createdAt,
        tmuxPaneId: opts.leadPane ?? '',
        cwd: opts.cwd,
        subscriptions: [],
      },
      {
        agentId: `implementer@${folder}`,
        name: 'implementer',
        agentType: 'tina:implementer',
        model: 'claude-sonnet-4-20251101',
        joinedAt: opts.createdAt + 60_000,
        tmuxPaneId: opts.workerPane ?? '%41',
        cwd: opts.cwd,
        subscriptions: [],
        backendType: 'tmux',
      },
    ],
  });
}

function task(folder: string, id: string, subject: string, status: string, owner: string): void {
  write(path.join(claude, 'tasks', folder, `${id}.json`), {
    id,
    subject,
    description: subject,
    activeForm: null,
    status,
    owner,
    blocks: [],
    blockedBy: [],
    metadata: {},
  });
}

function snapshot(s: ReadSettings = settings): Snapshot {
  const snap = readSnapshot({
    roots: [worktree],
    claudeDir: claude,
    panes: [],
    settings: s,
    home: tmp,
    discover: false,
  });
  expect(SnapshotSchema.safeParse(snap).success).toBe(true);
  return snap;
}

function tinaRun(snap: Snapshot): Run {
  const run = snap.runs.find((r) => r.system === 'tina');
  if (!run) throw new Error('no tina run');
  return run;
}

const claudeTeamNames = (snap: Snapshot): string[] =>
  snap.runs.filter((r) => r.system === 'claude-team').map((r) => r.name);

describe("a tina run's session team", () => {
  it('is merged when it works in the worktree: its members and tasks are the run’s, and it is no run of its own', () => {
    const folder = `session-${NEW_SESSION}`;
    team(folder, { session: NEW_SESSION, createdAt: NOW - 3600_000, cwd: worktree });
    task(folder, '1', 'Add the login form', 'in_progress', 'implementer');
    task(folder, '2', 'Wire the session cookie', 'pending', '');
    // A session team elsewhere is somebody else's.
    const other = path.join(tmp, 'elsewhere');
    fs.mkdirSync(other);
    team(`session-${OLD_SESSION}`, { session: OLD_SESSION, createdAt: NOW - 600_000, cwd: other });

    const snap = snapshot();
    const run = tinaRun(snap);
    expect(run.members.map((m) => [m.name, m.team, m.lead])).toEqual([
      ['team-lead', folder, true],
      ['implementer', folder, false],
    ]);
    expect(run.tasks.map((t) => [t.id, t.subject, t.status, t.team])).toEqual([
      ['1', 'Add the login form', 'in_progress', folder],
      ['2', 'Wire the session cookie', 'pending', folder],
    ]);
    expect(run.problems).toEqual([]);
    expect(claudeTeamNames(snap)).toEqual([`session-${OLD_SESSION}`]);
  });

  it('still takes the named teams of older Claude Code', () => {
    team('auth-flow-phase-1', { session: OLD_SESSION, createdAt: NOW - 3600_000, cwd: worktree });
    task('auth-flow-phase-1', '1', 'Add the login form', 'completed', 'implementer');
    team('auth-flow-orchestration', {
      session: NEW_SESSION,
      createdAt: NOW - 7200_000,
      cwd: worktree,
      workerPane: 'in-process',
    });

    const snap = snapshot();
    const run = tinaRun(snap);
    expect([...new Set(run.members.map((m) => m.team))]).toEqual(['auth-flow-orchestration', 'auth-flow-phase-1']);
    expect(run.tasks.map((t) => [t.id, t.team])).toEqual([['1', 'auth-flow-phase-1']]);
    expect(claudeTeamNames(snap)).toEqual([]);
  });

  it('of two in one worktree, the newest is merged, the other is listed on its own, and a problem says so', () => {
    const older = `session-${OLD_SESSION}`;
    const newer = `session-${NEW_SESSION}`;
    team(older, { session: OLD_SESSION, createdAt: NOW - 5 * 3600_000, cwd: worktree, workerPane: '%12' });
    task(older, '1', 'Old work', 'completed', 'implementer');
    team(newer, { session: NEW_SESSION, createdAt: NOW - 3600_000, cwd: worktree, workerPane: '%30' });
    task(newer, '1', 'New work', 'in_progress', 'implementer');

    const snap = snapshot();
    const run = tinaRun(snap);
    expect([...new Set(run.members.map((m) => m.team))]).toEqual([newer]);
    expect(run.tasks.map((t) => t.subject)).toEqual(['New work']);
    expect(claudeTeamNames(snap)).toEqual([older]);
    expect(run.problems).toHaveLength(1);
    expect(run.problems[0]?.message).toContain(`took the newest, ${newer}`);
    expect(run.problems[0]?.message).toContain(`${older} listed on its own`);
  });

  it("is tied by a member's pane in the run's tmux sessions, ahead of the worktree, with no problem", () => {
    const orchestration = `session-${OLD_SESSION}`;
    const phase = `session-${NEW_SESSION}`;
    team(orchestration, { session: OLD_SESSION, createdAt: NOW - 5 * 3600_000, cwd: worktree, workerPane: '%12' });
    team(phase, { session: NEW_SESSION, createdAt: NOW - 3600_000, cwd: worktree, workerPane: '%30' });
    const paneSessions = new Map([
      ['%12', 'tina-auth-flow-orchestration'],
      ['%30', 'tina-auth-flow-phase-1'],
    ]);
    const teams = readTeams(claude).teams;
    const { run, teamNames } = readTinaRun(worktree, path.join(worktree, '.claude/tina'), teams, {
      ...settings,
      paneSessions,
    });
    expect(teamNames.sort()).toEqual([orchestration, phase].sort());
    expect(run.problems).toEqual([]);
    // A pane in another feature's session ties nothing; the worktree still does.
    const { run: other, teamNames: names } = readTinaRun(worktree, path.join(worktree, '.claude/tina'), teams, {
      ...settings,
      paneSessions: new Map([['%12', 'tina-billing-phase-1']]),
    });
    expect(names).toEqual([phase]);
    expect(other.problems).toHaveLength(1);
  });

  it('turns an unprintable team name into a clean problem, never a crash', () => {
    const folder = `session-${NEW_SESSION}`;
    const other = `session-${OLD_SESSION}`;
    team(folder, { session: NEW_SESSION, createdAt: NOW - 3600_000, cwd: worktree });
    team(other, { session: OLD_SESSION, createdAt: NOW - 7200_000, cwd: worktree });
    const file = path.join(claude, 'teams', other, 'config.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...config, name: 'evil\u001b]2;pwned\u0007\u202e' }));
    const run = tinaRun(snapshot());
    for (const p of run.problems) expect(p.message).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
  });
});
