import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { sourcesOfRoot } from '../../src/store/discover.js';
import { tina } from '../../src/systems/tina/index.js';
import { loadMarkdownReader } from '../../src/systems/tina/markdown.js';
import { readTinaRun, readTinaSessions } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { ReadSettings, Team } from '../../src/systems/types.js';
import { copyFixtureTree, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

/** The e2e sample's phase 2 heartbeat is 12:00; three minutes later it is fresh. */
const NOW = Date.parse('2026-01-30T12:03:00Z');

const tempDir = tempDirsPerTest('tower-tina-');
let tmp: string;
let claude: string;
let teams: Team[];
let settings: ReadSettings;
let myFeature: string;
let myState: string;
let oldFeature: string;
let oldState: string;

// The readers are synchronous; the handoff parser they use is loaded on demand, here up front.
beforeAll(() => loadMarkdownReader());

beforeEach(() => {
  tmp = tempDir();
  claude = path.join(tmp, 'claude');
  copyFixtureTree('claude', claude, tmp);
  copyFixtureTree('tina/worktrees', path.join(tmp, 'worktrees'), tmp);
  teams = readTeams(claude).teams;
  settings = { ...DEFAULT_READ_SETTINGS, now: NOW };
  myFeature = path.join(tmp, 'worktrees/my-feature');
  myState = path.join(myFeature, '.claude/tina');
  oldFeature = path.join(tmp, 'worktrees/old-feature');
  oldState = path.join(oldFeature, '.tina');
  // Handoffs and signals written ten minutes before "now": fresh.
  for (const f of ['phase-1/handoff.md', 'phase-2/handoff.md', 'checkpoint-needed'])
    setMtime(path.join(myState, f), NOW - 10 * 60_000);
  setMtime(path.join(myState, 'phase-1/handoff.md'), NOW - 5 * 60_000);
  for (const f of ['phase-1/handoff.md', 'checkpoint-needed']) setMtime(path.join(oldState, f), NOW - 10 * 60_000);
});

function read(
  root: string,
  stateDir: string,
  withTeams: Team[] = teams,
  s: ReadSettings = settings,
): { run: Run; teamNames: string[] } {
  const result = readTinaRun(root, stateDir, withTeams, s);
  expect(RunSchema.parse(result.run)).toEqual(result.run);
  return result;
}

const findTinaStateDirs = (root: string): string[] => sourcesOfRoot(root, [tina]).map((s) => s.stateDir);

describe('finding tina runs', () => {
  it('finds the current and the older state dir, current first', () => {
    expect(findTinaStateDirs(myFeature)).toEqual([myState]);
    expect(findTinaStateDirs(oldFeature)).toEqual([oldState]);
    fs.mkdirSync(path.join(myFeature, '.tina'));
    expect(findTinaStateDirs(myFeature)).toEqual([myState, path.join(myFeature, '.tina')]);
    expect(findTinaStateDirs(tmp)).toEqual([]);
    // A file where the directory should be is not a state dir.
    fs.writeFileSync(path.join(tmp, '.tina'), '');
    expect(findTinaStateDirs(tmp)).toEqual([]);
  });

  it('reads the session registry: absolute paths, older key names, relative paths resolved or reported', () => {
    const { roots, problems } = readTinaSessions(claude);
    expect(roots).toEqual([myFeature, oldFeature]);
    expect(problems).toEqual([
      { file: path.join(claude, 'tina-sessions/relative.json'), message: expect.stringContaining('is relative') },
    ]);
  });

  it('reports unreadable registry entries with messages safe to print, and ignores other files', () => {
    const dir = path.join(claude, 'tina-sessions');
    fs.writeFileSync(path.join(dir, 'half.json'), '{"feature": "x", "worktree_path": "/a\u001b[2J');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a session');
    const { problems } = readTinaSessions(claude);
    const half = problems.find((p) => p.file?.endsWith('half.json'));
    expect(half?.message).toMatch(/^invalid JSON/);
    expect(half?.message).not.toContain('\u001b');
    expect(problems).toHaveLength(2);
    expect(readTinaSessions(path.join(tmp, 'none'))).toEqual({ roots: [], problems: [] });
  });
});

describe('a current tina run (.claude/tina, the e2e sample)', () => {
  it('reads name, phase and status; a pending context signal makes it waiting', () => {
    const { run } = read(myFeature, myState);
    expect(run).toMatchObject({
      id: 'tina:my-feature',
      system: 'tina',
      name: 'my-feature',
      root: myFeature,
      stateDir: myState,
      status: 'waiting',
      phase: { current: '2', total: 3, status: 'executing' },
      context: { usedPct: 25, threshold: 70 },
      problems: [],
      warnings: [],
    });
  });

  it('merges the orchestration and phase teams, members and tasks carrying their team', () => {
    const { run, teamNames } = read(myFeature, myState);
    expect(teamNames).toEqual(['my-feature-orchestration', 'my-feature-phase-2']);
    expect(run.members.map((m) => [m.team, m.name, m.state, m.lead, m.paneId])).toEqual([
      ['my-feature-orchestration', 'team-lead', 'unknown', true, '%1'],
      ['my-feature-phase-2', 'team-lead', 'unknown', true, '%11'],
      ['my-feature-phase-2', 'worker-1', 'unknown', false, '%12'],
      ['my-feature-phase-2', 'spec-reviewer', 'in-process', false, null],
      ['my-feature-phase-2', 'quality-reviewer', 'in-process', false, null],
    ]);
    expect(run.tasks.map((t) => `${t.team}#${t.id}`)).toEqual([
      'my-feature-orchestration#1',
      'my-feature-orchestration#2',
      'my-feature-orchestration#3',
      'my-feature-phase-2#1',
      'my-feature-phase-2#2',
      'my-feature-phase-2#10',
    ]);
  });

  it('turns the checkpoint-needed JSON line into a context gate', () => {
    const { run } = read(myFeature, myState);
    expect(run.gates).toEqual([
      {
        id: 'context',
        kind: 'context',
        state: 'pending',
        since: '2026-01-26T14:37:07.000Z',
        grantable: false,
        // The context now (the metrics, as the gauge shows it); the signal's own figure in the body.
        title: 'Context 25% — checkpoint due',
        file: path.join(myState, 'checkpoint-needed'),
        body: 'signalled at: context 70%\nsource: statusline\ntriggered at: 2026-01-26T14:37:07.000Z',
      },
    ]);
  });

  it("uses the current phase's handoff even when another phase's is newer", () => {
    const { run } = read(myFeature, myState);
    expect(run.handoff).toEqual({
      path: path.join(myState, 'phase-2/handoff.md'),
      writtenAt: new Date(NOW - 10 * 60_000).toISOString(),
      stale: false,
    });
  });

  it('falls back to the newest handoff of any phase', () => {
    fs.rmSync(path.join(myState, 'phase-2/handoff.md'));
    expect(read(myFeature, myState).run.handoff?.path).toBe(path.join(myState, 'phase-1/handoff.md'));
  });

  it('warns about a stale handoff', () => {
    setMtime(path.join(myState, 'phase-2/handoff.md'), NOW - 2 * 3600_000 - 60_000);
    const { run } = read(myFeature, myState);
    expect(run.handoff?.stale).toBe(true);
    expect(run.warnings).toEqual(['handoff 2 h old']);
  });

  it('warns about a stuck heartbeat, and records it as a problem on the status file', () => {
    const { run } = read(myFeature, myState, teams, { ...settings, now: Date.parse('2026-01-30T12:12:30Z') });
    const message = 'phase 2 heartbeat 12 min old — looks stuck';
    expect(run.warnings).toContain(message);
    expect(run.problems).toEqual([{ file: path.join(myState, 'phase-2/status.json'), message }]);
  });

  it('uses the signal threshold, else the configured one, and warns when the context is over it', () => {
    fs.writeFileSync(path.join(myState, 'context-metrics.json'), '{"used_pct": 82}');
    const over = read(myFeature, myState).run;
    expect(over.context).toEqual({ usedPct: 82, threshold: 70 });
    expect(over.warnings).toEqual(['context 82% ≥ 70% threshold']);
    fs.rmSync(path.join(myState, 'checkpoint-needed'));
    const configured = read(myFeature, myState, teams, { ...settings, contextThresholdPct: 90 }).run;
    expect(configured.context).toEqual({ usedPct: 82, threshold: 90 });
    expect(configured.warnings).toEqual([]);
    expect(configured.status).toBe('running');
  });

  it('takes review verdicts from the supervisor state over the handoff', () => {
    const file = path.join(myState, 'supervisor-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { phases: Record<string, Record<string, unknown>> };
    state.phases['2'] = {
      status: 'executing',
      review_verdicts: { 'task-1': { spec_review: 'rejected' }, '2': 'approved' },
    };
    fs.writeFileSync(file, JSON.stringify(state));
    fs.writeFileSync(
      path.join(myState, 'phase-2/handoff.md'),
      '## Timestamp\n2026-01-30T12:00:00Z\n\n## Review Tracking\n- Task 1: spec-review passed, code-quality passed\n',
    );
    expect(read(myFeature, myState).run.reviews).toEqual([
      { taskId: '1', kind: 'code-quality', verdict: 'passed', reviewer: null },
      { taskId: '1', kind: 'spec-review', verdict: 'failed', reviewer: null },
      { taskId: '2', kind: 'review', verdict: 'passed', reviewer: null },
    ]);
  });

  it('maps supervisor status words to run statuses', () => {
    const file = path.join(myState, 'supervisor-state.json');
    const base = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.rmSync(path.join(myState, 'checkpoint-needed'));
    fs.rmSync(path.join(myState, 'phase-2/status.json'));
    const statusFor = (status: string): Run => {
      fs.writeFileSync(file, JSON.stringify({ ...base, status, phases: {} }));
      return read(myFeature, myState).run;
    };
    expect(statusFor('planning').status).toBe('running');
    expect(statusFor('reviewing').status).toBe('running');
    expect(statusFor('complete').status).toBe('complete');
    const odd = statusFor('hibernating');
    expect(odd.status).toBe('unknown');
    expect(odd.problems).toEqual([{ file, message: 'unknown status "hibernating"' }]);
    const blocked = statusFor('blocked');
    expect(blocked.status).toBe('blocked');
    expect(blocked.gates).toEqual([
      expect.objectContaining({ id: 'blocked', kind: 'escalation', title: 'Phase 2 blocked: no reason given', file }),
    ]);
  });
});

describe('an older tina run (.tina, seed 000 naming)', () => {
  it('is named after the root, blocked, with the escalation and the empty-signal gate', () => {
    const { run } = read(oldFeature, oldState);
    expect(run).toMatchObject({
      id: 'tina:old-feature',
      name: 'old-feature',
      status: 'blocked',
      phase: { current: '1', total: 2, status: 'blocked' },
      context: null,
    });
    expect(run.gates).toEqual([
      {
        id: 'context',
        kind: 'context',
        state: 'pending',
        since: new Date(NOW - 10 * 60_000).toISOString(),
        grantable: false,
        title: 'Checkpoint due',
        file: path.join(oldState, 'checkpoint-needed'),
      },
      {
        id: 'blocked',
        kind: 'escalation',
        state: 'pending',
        since: '2026-01-26T10:30:00.000Z',
        grantable: false,
        title: 'Phase 1 blocked: Phase reviewer rejected 3 times',
        file: path.join(oldState, 'phase-1/status.json'),
        body: [
          'Phase reviewer rejected 3 times',
          'last_rejection: Test coverage below 80%',
          'attempts: 3',
          'tasks_completed: 5',
          'tasks_remaining: 2',
        ].join('\n'),
      },
    ]);
  });

  it('merges a phase-N-execution team only when its members work inside the root', () => {
    const { run, teamNames } = read(oldFeature, oldState);
    expect(teamNames).toEqual(['phase-1-execution']);
    expect(run.members.map((m) => m.name)).toEqual(['team-lead', 'worker-1']);
    expect(run.tasks.map((t) => [t.team, t.id])).toEqual([['phase-1-execution', '1']]);
    // The same team seen from another worktree is not this run's.
    expect(read(myFeature, myState).teamNames).not.toContain('phase-1-execution');
  });

  it("falls back to the handoff's team and tasks when no team file is left, with its reviews", () => {
    const { run, teamNames } = read(oldFeature, oldState, []);
    expect(teamNames).toEqual([]);
    expect(run.members).toEqual([
      { name: 'worker-1', role: 'worker', model: '', paneId: null, state: 'unknown', lead: false },
      { name: 'worker-2', role: 'worker', model: '', paneId: null, state: 'unknown', lead: false },
      { name: 'spec-reviewer', role: 'spec-reviewer', model: '', paneId: null, state: 'unknown', lead: false },
      {
        name: 'code-quality-reviewer',
        role: 'code-quality-reviewer',
        model: '',
        paneId: null,
        state: 'unknown',
        lead: false,
      },
    ]);
    expect(run.tasks.map((t) => [t.id, t.status, t.team])).toEqual([
      ['1', 'completed', 'handoff'],
      ['2', 'completed', 'handoff'],
      ['3', 'in_progress', 'handoff'],
      ['4', 'pending', 'handoff'],
      ['5', 'pending', 'handoff'],
    ]);
    expect(run.reviews.map((r) => `${r.taskId}:${r.kind}:${r.verdict}`)).toEqual([
      '3:code-quality:pending',
      '3:spec-review:passed',
    ]);
  });

  it('takes a blocked phase from the supervisor phases when the status file is gone', () => {
    fs.rmSync(path.join(oldState, 'phase-1/status.json'));
    const file = path.join(oldState, 'supervisor-state.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        total_phases: 2,
        current_phase: 1,
        phases: { '1': { status: 'blocked', blocked_reason: 'merge conflict' } },
      }),
    );
    const { run } = read(oldFeature, oldState);
    expect(run.status).toBe('blocked');
    expect(run.gates.find((g) => g.id === 'blocked')).toMatchObject({
      title: 'Phase 1 blocked: merge conflict',
      file,
      since: null,
      body: 'merge conflict',
    });
  });
});

describe('damaged tina state', () => {
  it('is unknown with a problem when there is no supervisor state, inferring the phase from its folder', () => {
    fs.rmSync(path.join(oldState, 'supervisor-state.json'));
    const { run } = read(oldFeature, oldState);
    expect(run.status).toBe('unknown');
    expect(run.phase).toEqual({ current: '1', total: null, status: 'blocked' });
    expect(run.problems).toContainEqual({
      file: path.join(oldState, 'supervisor-state.json'),
      message: 'no supervisor-state.json in the tina state directory',
    });
  });

  it('turns an empty, truncated, binary or huge supervisor state into a problem naming it', () => {
    const file = path.join(myState, 'supervisor-state.json');
    const cases: [string | Buffer, RegExp][] = [
      ['', /^file is empty$/],
      ['{"feature": "my-feature", "current_pha', /^invalid JSON/],
      [Buffer.from([0x7b, 0x00, 0x01, 0x7d]), /binary/],
      [`{"feature": "${'x'.repeat(5 * 1024 * 1024)}"}`, /too large/],
      ['[1, 2]', /not a JSON object/],
    ];
    for (const [content, message] of cases) {
      fs.writeFileSync(file, content);
      const { run } = read(myFeature, myState);
      expect(run.status).toBe('unknown');
      expect(run.name).toBe('my-feature');
      expect(run.problems.find((p) => p.file === file)?.message).toMatch(message);
    }
  });

  it('strips escape sequences from a feature name, reasons and handoff text', () => {
    const file = path.join(myState, 'supervisor-state.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ feature: 'my\u001b[2J-feature\u0007', current_phase: 2, status: 'executing' }),
    );
    fs.writeFileSync(
      path.join(myState, 'phase-2/status.json'),
      JSON.stringify({
        status: 'blocked',
        reason: 'red \u001b[31malert\u001b[0m',
        context: { 'k\u001b[1m': 'v\u0008' },
      }),
    );
    const { run } = read(myFeature, myState);
    expect(run.name).toBe('my-feature');
    const gate = run.gates.find((g) => g.id === 'blocked');
    expect(gate?.title).toBe('Phase 2 blocked: red alert');
    expect(gate?.body).toBe('red alert\nk: v');
    expectPrintable(run);
  });

  it('keeps a binary checkpoint-needed as a signal, and reports a truncated status file and an unreadable handoff', () => {
    fs.writeFileSync(path.join(myState, 'checkpoint-needed'), Buffer.from([0, 1, 2]));
    fs.writeFileSync(path.join(myState, 'phase-2/status.json'), '{"status": "exec');
    fs.writeFileSync(path.join(myState, 'phase-2/handoff.md'), Buffer.from([0x23, 0x00]));
    const { run } = read(myFeature, myState);
    expect(run.gates.map((g) => [g.id, g.title])).toEqual([['context', 'Context 25% — checkpoint due']]);
    // The phase status falls back to the supervisor's phase entry.
    expect(run.phase?.status).toBe('executing');
    expect(run.handoff?.path).toBe(path.join(myState, 'phase-2/handoff.md'));
    expect(run.problems.map((p) => `${path.basename(p.file ?? '')}: ${p.message}`)).toEqual([
      expect.stringMatching(/^status\.json: invalid JSON/),
      'checkpoint-needed: file is binary, expected text',
      'handoff.md: file is binary, expected text',
    ]);
  });

  it('reports a handoff with none of the sections, and an empty state dir', () => {
    fs.writeFileSync(path.join(myState, 'phase-2/handoff.md'), 'lorem ipsum\n');
    const { run } = read(myFeature, myState);
    expect(run.problems).toEqual([
      {
        file: path.join(myState, 'phase-2/handoff.md'),
        message: expect.stringContaining('none of the expected sections'),
      },
    ]);
    const empty = path.join(tmp, 'empty/.claude/tina');
    fs.mkdirSync(empty, { recursive: true });
    const bare = read(path.join(tmp, 'empty'), empty).run;
    expect(bare).toMatchObject({ name: 'empty', status: 'unknown', phase: null, gates: [], handoff: null });
    expect(bare.problems).toHaveLength(1);
  });
});

describe('a tina that writes no checkpoint-needed (its statusline writes only context-metrics.json)', () => {
  // tina 49c3de7 removed the signal file: the supervisor decides from context-metrics.json
  // (`{used_pct, tokens, max, timestamp}`, docs/plans/2026-01-26-context-management-redesign.md in
  // joshuabates/tina) and the threshold, tina's default 70 %.
  const metrics = (usedPct: number, at: number) => {
    fs.writeFileSync(
      path.join(myState, 'context-metrics.json'),
      JSON.stringify({
        used_pct: usedPct,
        tokens: usedPct * 2000,
        max: 200_000,
        timestamp: new Date(at).toISOString(),
      }),
    );
    setMtime(path.join(myState, 'context-metrics.json'), at);
  };
  beforeEach(() => fs.rmSync(path.join(myState, 'checkpoint-needed')));

  it('opens the context gate from the metrics past the threshold, and the run waits for it', () => {
    metrics(82, NOW - 60_000);
    const { run } = read(myFeature, myState);
    const gate = run.gates.find((g) => g.id === 'context');
    expect(gate).toMatchObject({
      kind: 'context',
      state: 'pending',
      grantable: false,
      title: 'Context 82% ≥ 70% — checkpoint due',
      file: path.join(myState, 'context-metrics.json'),
    });
    expect(gate?.since).toBe(new Date(NOW - 10 * 60_000).toISOString());
    expect(run.status).toBe('waiting');
    expect(run.context).toEqual({ usedPct: 82, threshold: 70 });
  });

  it('opens none below the threshold, nor from metrics older than the last handoff (a checkpoint just taken)', () => {
    metrics(69, NOW - 60_000);
    expect(read(myFeature, myState).run.gates.map((g) => g.id)).not.toContain('context');
    metrics(90, NOW - 20 * 60_000);
    const { run } = read(myFeature, myState);
    expect(run.gates.map((g) => g.id)).not.toContain('context');
    expect(run.status).toBe('running');
  });
});

describe('the supervisor state against a stale phase status file', () => {
  // supervisor-state.json's phases (tina-session/src/state/schema.rs: PhaseState {status, blocked_reason})
  // and phase-N/status.json, written by the phase's team.
  const sup = (phase: Record<string, unknown>) => {
    const file = path.join(myState, 'supervisor-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { phases: Record<string, unknown> };
    state.phases['2'] = { plan_path: 'docs/plans/phase-2.md', ...phase };
    fs.writeFileSync(file, JSON.stringify(state));
  };
  const phaseFile = (v: Record<string, unknown>) =>
    fs.writeFileSync(path.join(myState, 'phase-2', 'status.json'), JSON.stringify(v));
  beforeEach(() => fs.rmSync(path.join(myState, 'checkpoint-needed')));

  it('a phase the supervisor blocked is blocked, whatever "complete" the file still says', () => {
    sup({ status: 'blocked', blocked_reason: 'review gaps after 3 attempts' });
    phaseFile({ status: 'complete', completed_at: '2026-01-30T11:59:00Z' });
    const { run } = read(myFeature, myState);
    expect(run.status).toBe('blocked');
    expect(run.gates.find((g) => g.id === 'blocked')?.title).toBe('Phase 2 blocked: review gaps after 3 attempts');
  });

  it('a phase the supervisor plans again is not blocked by the file it left behind', () => {
    sup({ status: 'planning' });
    phaseFile({ status: 'blocked', blocked_at: '2026-01-30T11:50:00Z', reason: 'tests fail' });
    const { run } = read(myFeature, myState);
    expect(run.gates.map((g) => g.id)).not.toContain('blocked');
    expect(run.phase?.status).toBe('planning');
    expect(run.status).not.toBe('blocked');
  });

  it('names the gate the status file stops at, and a pause by the operator waits amber instead of escalating', () => {
    phaseFile({ status: 'blocked', blocked_at: '2026-01-30T11:50:00Z', reason: 'tests fail', gate: 'review' });
    expect(read(myFeature, myState).run.gates.find((g) => g.id === 'blocked')?.title).toBe(
      'Phase 2 blocked at gate review: tests fail',
    );
    phaseFile({ status: 'blocked', blocked_at: '2026-01-30T11:50:00Z', reason: 'paused by operator', gate: 'review' });
    const { run } = read(myFeature, myState);
    expect(run.gates.map((g) => [g.id, g.kind])).toContainEqual(['paused', 'checkpoint']);
    expect(run.gates.some((g) => g.kind === 'escalation')).toBe(false);
    expect(run.status).toBe('waiting');
  });
});
