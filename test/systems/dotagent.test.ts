import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import {
  parseExecutionState,
  parsePhaseState,
  readDotagentRun,
  validateDotagent,
} from '../../src/systems/dotagent/read.js';
import type { DotagentPhase } from '../../src/systems/dotagent/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { copyFixture, FIXTURES, tempDirsPerTest } from '../helpers/fixtures.js';
import { expectPrintable } from '../helpers/printable.js';

const SAMPLES = path.join(FIXTURES, 'samples/dotagent');
/** A day after the rendered samples: nothing stale, nothing in the future. */
const NOW = Date.parse('2026-01-17T00:00:00Z');

const tempDir = tempDirsPerTest('tower-dotagent-');

/** A copy of a fixture project; returns its root and state dir (created when the fixture has none). */
function project(fixture: string): { root: string; stateDir: string } {
  const root = copyFixture(`dotagent/${fixture}`, tempDir());
  const stateDir = path.join(root, 'memory', 'state');
  fs.mkdirSync(stateDir, { recursive: true });
  return { root, stateDir };
}

/** The rendered samples (phase.json, execution.json) in a project that has their outputs. */
function rendered(): { root: string; stateDir: string } {
  const p = project('rendered');
  fs.copyFileSync(path.join(SAMPLES, 'rendered.phase.json'), path.join(p.stateDir, 'phase.json'));
  fs.copyFileSync(path.join(SAMPLES, 'rendered.execution.json'), path.join(p.stateDir, 'execution.json'));
  return p;
}

function read(p: { root: string; stateDir: string }, now = NOW): Run {
  const run = readDotagentRun(p.root, p.stateDir, { ...DEFAULT_READ_SETTINGS, now });
  RunSchema.parse(run);
  return run;
}

function editPhase(p: { stateDir: string }, change: (v: Record<string, unknown>) => Record<string, unknown>): void {
  const file = path.join(p.stateDir, 'phase.json');
  fs.writeFileSync(file, JSON.stringify(change(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)));
}

function messages(run: Run): string[] {
  return run.problems.map((x) => x.message);
}

describe('readDotagentRun on the real samples', () => {
  it('reads the rendered workflow: phase, approved gates, tasks', () => {
    const p = rendered();
    const run = read(p);
    expect(run.id).toBe('dotagent:wf-20260116-auth');
    expect(run.phase).toEqual({ current: 'IMPLEMENTATION', total: 5, status: 'in_progress' });
    expect(run.status).toBe('running');
    expect(run.gates).toEqual([
      {
        id: 'REQUIREMENTS',
        kind: 'approval',
        state: 'granted',
        since: '2026-01-16T09:21:00.000Z',
        grantable: false,
        title: 'REQUIREMENTS approved',
        file: path.join(p.stateDir, 'phase.json'),
      },
      {
        id: 'ARCHITECTURE',
        kind: 'approval',
        state: 'granted',
        since: '2026-01-16T09:58:00.000Z',
        grantable: false,
        title: 'ARCHITECTURE approved',
        file: path.join(p.stateDir, 'phase.json'),
      },
    ]);
    expect(run.tasks).toEqual([
      { id: 'task-001', subject: 'memory/tasks/task-001/output.json', status: 'verified', owner: null, blockedBy: [] },
      { id: 'task-002', subject: 'Timeout after 120s', status: 'running', owner: null, blockedBy: [] },
      { id: 'task-003', subject: 'task-003', status: 'pending', owner: null, blockedBy: [] },
    ]);
    // task-002 runs with no output: the one finding on an otherwise sound sample.
    expect(run.problems).toEqual([
      {
        file: path.join(p.stateDir, 'execution.json'),
        message: 'task task-002 is running with no output (orphaned: the workflow is not live)',
      },
    ]);
    expect(run.warnings).toEqual([]);
  });

  it('reads the schema-by-example template and says what is wrong with it', () => {
    const p = project('rendered');
    fs.copyFileSync(path.join(SAMPLES, 'phase.json.schema-by-example.json'), path.join(p.stateDir, 'phase.json'));
    const run = read(p);
    expect(run.name).toBe('string');
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([['REQUIREMENTS', 'granted']]);
    expect(messages(run)).toEqual([
      'started_at is not a timestamp: "ISO-8601"',
      'last_updated is not a timestamp: "ISO-8601"',
      'completed_at of REQUIREMENTS is not a timestamp: "ISO-8601"',
      'approved_at of REQUIREMENTS is not a timestamp: "ISO-8601"',
      'unknown current_phase "REQUIREMENTS|ARCHITECTURE|IMPLEMENTATION|VERIFICATION|REFLEC" (expected REQUIREMENTS, ARCHITECTURE, IMPLEMENTATION, VERIFICATION, REFLECTION)',
      'unknown phase_status "pending|in_progress|complete|failed"',
    ]);
    expect(run.status).toBe('unknown');
  });

  it('reads the retry-state and abort-report execution examples', () => {
    const p = rendered();
    fs.copyFileSync(
      path.join(SAMPLES, 'execution.json.retry-state.example.json'),
      path.join(p.stateDir, 'execution.json'),
    );
    let run = read(p);
    expect(run.tasks.map((t) => [t.id, t.status, t.subject])).toEqual([
      ['task-001', 'running', 'Timeout after 120s'],
      ['task-002', 'running', 'Needs access to src/config/db.ts'],
    ]);
    expect(messages(run)).toEqual([
      'task task-001 is running with no output (orphaned: the workflow is not live)',
      'task task-002 is running with no output (orphaned: the workflow is not live)',
    ]);

    fs.copyFileSync(
      path.join(SAMPLES, 'execution.json.abort-report.example.json'),
      path.join(p.stateDir, 'execution.json'),
    );
    run = read(p);
    expect(run.tasks).toEqual([
      { id: '{task_id}', subject: '{specific reason}', status: 'failed', owner: null, blockedBy: [] },
    ]);
    expect(run.problems).toEqual([]);
  });
});

describe('readDotagentRun: approvals and status', () => {
  it('a completed phase without approval is a pending, grantable gate; the run waits', () => {
    const p = project('awaiting');
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.gates.map((g) => [g.id, g.state, g.grantable, g.since])).toEqual([
      ['ARCHITECTURE', 'pending', true, '2026-01-16T09:55:00.000Z'],
      ['REQUIREMENTS', 'granted', false, '2026-01-16T09:21:00.000Z'],
    ]);
    expect(run.gates[0]?.title).toBe('ARCHITECTURE complete — awaiting approval');
    expect(run.status).toBe('waiting');
  });

  it('once approved, a pending phase_status makes the run idle', () => {
    const p = project('awaiting');
    editPhase(p, (v) => ({
      ...v,
      user_checkpoints: [
        ...(v.user_checkpoints as unknown[]),
        { phase: 'ARCHITECTURE', approved_at: '2026-01-16T10:00:00Z' },
      ],
    }));
    const run = read(p);
    expect(run.gates.every((g) => g.state === 'granted')).toBe(true);
    expect(run.status).toBe('idle');
  });

  it('a current phase marked complete is no gate: dotagent has already advanced to it, it has not run', () => {
    // skills/clouder0/checkpoint/SKILL.md "On Completion": complete → append, advance current_phase.
    const run = read(project('current-complete'));
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([
      ['REQUIREMENTS', 'granted'],
      ['ARCHITECTURE', 'granted'],
      ['IMPLEMENTATION', 'granted'],
    ]);
    expect(run.gates.some((g) => g.id === 'VERIFICATION')).toBe(false);
    expect(run.status).toBe('idle');
  });

  it('REFLECTION complete and approved is a complete run', () => {
    const run = read(project('reflected'));
    expect(run.problems).toEqual([]);
    expect(run.gates).toHaveLength(5);
    expect(run.status).toBe('complete');
  });

  it('phase_status failed blocks the run', () => {
    const run = read(project('failed'));
    expect(run.status).toBe('blocked');
    expect(run.name).toBe('wf-failed');
  });

  it('ignores archives under .archive/', () => {
    const p = project('archive');
    fs.copyFileSync(path.join(SAMPLES, 'rendered.phase.json'), path.join(p.stateDir, 'phase.json'));
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.name).toBe('wf-20260116-auth');
  });
});

describe('readDotagentRun: the six validations (seed 004)', () => {
  const now = Date.parse('2026-02-01T00:00:00Z');

  it('reports each finding of a broken workflow as its own problem', () => {
    const p = project('invalid');
    const run = read(p, now);
    const phaseFile = path.join(p.stateDir, 'phase.json');
    const execFile = path.join(p.stateDir, 'execution.json');
    expect(run.problems).toEqual([
      { file: phaseFile, message: 'completed_at of REQUIREMENTS is in the future: 2026-03-01T00:00:00Z' },
      { file: phaseFile, message: 'approved_at of REQUIREMENTS is in the future: 2026-03-01T00:00:00Z' },
      { file: phaseFile, message: 'phase sequence out of order: REQUIREMENTS completed after ARCHITECTURE' },
      {
        file: phaseFile,
        message: 'phase sequence out of order: current_phase REQUIREMENTS comes before completed ARCHITECTURE',
      },
      { file: phaseFile, message: 'output of REQUIREMENTS is missing: memory/reports/gone.json' },
      { file: phaseFile, message: 'interruption_safe is false: a write was cut off, the state may be half-updated' },
      { file: phaseFile, message: 'state is stale: last updated 30 days ago' },
      { file: execFile, message: 'task task-001 is running with no output (orphaned: the workflow is not live)' },
      { file: execFile, message: 'output of task task-002 is missing: memory/tasks/task-002/output.json' },
    ]);
    expect(run.warnings).toEqual(['stale: workflow state last updated 30 days ago']);
  });

  it('stale falls back to started_at; five minutes ahead is not yet the future', () => {
    const base: DotagentPhase = {
      workflowId: 'w',
      startedAt: { raw: '2026-01-01T00:00:00Z', ms: Date.parse('2026-01-01T00:00:00Z') },
      lastUpdated: { raw: null, ms: null },
      currentPhase: 'REQUIREMENTS',
      phaseStatus: 'in_progress',
      completed: [],
      approvals: [],
      interruptionSafe: true,
    };
    const ctx = {
      now: Date.parse('2026-01-08T00:00:01Z'),
      phaseFile: 'p',
      executionFile: 'e',
      outputExists: () => true,
      live: false,
    };
    expect(validateDotagent(base, null, ctx).warnings).toEqual(['stale: workflow state last updated 7 days ago']);
    expect(validateDotagent(base, null, { ...ctx, now: Date.parse('2026-01-07T23:59:59Z') }).problems).toEqual([]);
    const soon = { ...base, startedAt: { raw: 'x', ms: ctx.now + 5 * 60_000 } };
    expect(validateDotagent(soon, null, ctx).problems).toEqual([]);
    const later = { ...base, startedAt: { raw: 'x', ms: ctx.now + 5 * 60_000 + 1 } };
    expect(validateDotagent(later, null, ctx).problems).toEqual([
      { file: 'p', message: 'started_at is in the future: x' },
    ]);
  });

  it('a running task whose output exists is not orphaned (crash after write)', () => {
    const exec = parseExecutionState({ tasks: [{ id: 't', status: 'running', output: 'out.json' }] }, 'e').value;
    const ctx = { now: NOW, phaseFile: 'p', executionFile: 'e', live: false };
    expect(validateDotagent(null, exec, { ...ctx, outputExists: () => true }).problems).toEqual([]);
    expect(validateDotagent(null, exec, { ...ctx, outputExists: () => false }).problems).toEqual([
      { file: 'e', message: 'task t is running with no output (orphaned: the workflow is not live)' },
    ]);
    // While the workflow is live it is being worked or retried: no orphan.
    expect(validateDotagent(null, exec, { ...ctx, outputExists: () => false, live: true }).problems).toEqual([]);
  });
});

describe('readDotagentRun: bad files', () => {
  it('missing, empty, truncated, binary and huge phase.json are problems; the run is unknown', () => {
    const cases: [string, string | Buffer | null, RegExp][] = [
      ['missing', null, /file is missing/],
      ['empty', '', /file is empty/],
      ['truncated', '{"workflow_id":"wf-1","current_ph', /invalid JSON/],
      ['binary', Buffer.from([0x7b, 0x00, 0x7d]), /binary/],
      ['huge', `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`, /too large/],
      ['not an object', '[1,2]', /expected a JSON object/],
    ];
    for (const [label, content, message] of cases) {
      const p = project('rendered');
      if (content !== null) fs.writeFileSync(path.join(p.stateDir, 'phase.json'), content);
      const run = read(p);
      expect(run.problems, label).toHaveLength(1);
      expect(run.problems[0]?.file, label).toBe(path.join(p.stateDir, 'phase.json'));
      expect(run.problems[0]?.message, label).toMatch(message);
      expect(run.status, label).toBe('unknown');
      expect(run.name, label).toBe('rendered');
    }
  });

  it('a broken execution.json is a problem but the phase still reads', () => {
    const p = rendered();
    fs.writeFileSync(path.join(p.stateDir, 'execution.json'), '{"tasks": [{"id": "task-0');
    const run = read(p);
    expect(messages(run)).toEqual([expect.stringMatching(/invalid JSON/)]);
    expect(run.status).toBe('running');
    expect(run.tasks).toEqual([]);
  });

  it('lists tasks without ids by position and reports them', () => {
    const r = parseExecutionState({ tasks: [{ status: 'pending' }, 'junk'] }, 'e');
    expect(r.value?.tasks.map((t) => t.id)).toEqual(['#1']);
    expect(r.problems).toEqual([
      { file: 'e', message: 'tasks[0] has no id' },
      { file: 'e', message: 'tasks[1] is not an object' },
    ]);
    expect(parsePhaseState({ completed_phases: 'x', user_checkpoints: [{}] }, 'p').problems).toEqual([
      { file: 'p', message: '`completed_phases` is not a list' },
      { file: 'p', message: 'user_checkpoints[0] names no phase' },
    ]);
  });

  it('strips escape sequences from every string it returns', () => {
    const run = read(project('escapes'));
    expectPrintable(run);
    expect(run.name).toBe('wf-x');
    expect(run.tasks[0]).toMatchObject({ id: 't1', status: 'pending', subject: 'boom bold' });
    expect(run.gates[0]?.id).toBe('REQUIREMENTS');
  });

  it('reports a missing state directory', () => {
    const root = tempDir();
    const run = readDotagentRun(root, path.join(root, 'memory', 'state'), { ...DEFAULT_READ_SETTINGS, now: NOW });
    expect(run.problems).toEqual([{ file: path.join(root, 'memory', 'state'), message: 'state directory is missing' }]);
  });
});
