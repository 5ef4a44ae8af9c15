import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  mergeReviews,
  normalizeKind,
  normalizeTaskId,
  normalizeVerdict,
  parseReviewVerdicts,
} from '../../src/systems/tina/reviews.js';
import {
  parseCheckpointSignal,
  parseContextMetrics,
  parsePhaseStatus,
  parseSessionEntry,
  parseSupervisorState,
} from '../../src/systems/tina/state.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SAMPLES = path.join(HERE, '../fixtures/samples/tina');
const text = (name: string): string => fs.readFileSync(path.join(SAMPLES, name), 'utf8');
const json = (name: string): unknown => JSON.parse(text(name));

describe('parseSupervisorState', () => {
  it('reads the real e2e sample', () => {
    const { state, problems } = parseSupervisorState(json('supervisor-state.e2e.json'), '/s.json');
    expect(problems).toEqual([]);
    expect(state).toMatchObject({ feature: 'my-feature', currentPhase: '2', totalPhases: 3, status: 'executing' });
    expect(state?.phases.get('1')).toMatchObject({ status: 'complete', blockedReason: null });
    expect(state?.phases.get('2')?.status).toBe('executing');
  });

  it('reads the minimal sample with empty phases', () => {
    const { state } = parseSupervisorState(json('supervisor-state.minimal.json'), '/s.json');
    expect(state).toMatchObject({ feature: 'test-feature', currentPhase: '2', phases: new Map() });
  });

  it('reads the older .tina shape: no feature, no status, design_doc_path', () => {
    const old = {
      design_doc_path: 'docs/x.md',
      total_phases: '4',
      current_phase: 0,
      active_tmux_session: null,
      plan_paths: {},
    };
    const { state, problems } = parseSupervisorState(old, '/s.json');
    expect(problems).toEqual([]);
    expect(state).toEqual({
      feature: null,
      currentPhase: '0',
      totalPhases: 4,
      status: null,
      blockedReason: null,
      phases: new Map(),
    });
  });

  it('reads phases as a list, remediation phases, blocked reasons and dates', () => {
    const { state, problems } = parseSupervisorState(
      {
        feature: 'f',
        current_phase: '2.5',
        status: 'BLOCKED',
        phases: [
          { phase: 1, status: 'complete' },
          { phase: '2.5', status: 'blocked', blocked_reason: 'tests fail', blocked_at: 'soon' },
          7,
        ],
      },
      '/s.json',
    );
    expect(state?.status).toBe('blocked');
    expect(state?.phases.get('2.5')).toMatchObject({ status: 'blocked', blockedReason: 'tests fail', blockedAt: null });
    expect(problems.map((p) => p.message)).toEqual(['blocked_at "soon" is not a date', 'phase 3 is not an object']);
  });

  it('treats a phase named __proto__ as a plain key', () => {
    const { state } = parseSupervisorState(
      JSON.parse('{"current_phase": 1, "phases": {"__proto__": {"status": "blocked"}}}'),
      '/s.json',
    );
    expect([...(state?.phases.keys() ?? [])]).toEqual(['__proto__']);
    expect(state?.phases.get('1')).toBeUndefined();
  });

  it('refuses non-objects and odd phases', () => {
    expect(parseSupervisorState([], '/s.json').state).toBeNull();
    expect(parseSupervisorState({ phases: 'x' }, '/s.json').problems[0]?.message).toBe(
      '"phases" is neither an object nor a list',
    );
  });
});

describe('parsePhaseStatus', () => {
  it('reads the blocked sample with its context as lines', () => {
    const { status, problems } = parsePhaseStatus(json('phase-status.blocked.json'), '/p.json');
    expect(problems).toEqual([]);
    expect(status).toEqual({
      status: 'blocked',
      startedAt: '2026-01-26T10:00:00.000Z',
      completedAt: null,
      blockedAt: '2026-01-26T10:30:00.000Z',
      reason: 'Phase reviewer rejected 3 times',
      contextLines: [
        'last_rejection: Test coverage below 80%',
        'attempts: 3',
        'tasks_completed: 5',
        'tasks_remaining: 2',
      ],
      heartbeatAt: null,
      gate: null,
    });
  });

  it('reports the template placeholder timestamp, and takes epoch-ms heartbeats', () => {
    // The template is not valid JSON; its parsed shape with the placeholder is what a careless writer leaves.
    const { status, problems } = parsePhaseStatus(
      { status: 'executing', started_at: '<current ISO timestamp>', heartbeat_at: 1769774400000 },
      '/p.json',
    );
    expect(status?.startedAt).toBeNull();
    expect(status?.heartbeatAt).toBe('2026-01-30T12:00:00.000Z');
    expect(problems.map((p) => p.message)).toEqual(['started_at "<current ISO timestamp>" is not a date']);
    expect(parsePhaseStatus('x', '/p.json').status).toBeNull();
    // A date field holding an object whose "toString" is not a function must not throw.
    const odd = parsePhaseStatus(JSON.parse('{"blocked_at": {"toString": 1}}'), '/p.json');
    expect(odd.problems.map((p) => p.message)).toEqual(['blocked_at "{"toString":1}" is not a date']);
  });
});

describe('parseCheckpointSignal', () => {
  it('reads the real JSON line', () => {
    const { signal, problems } = parseCheckpointSignal(text('checkpoint-needed'), '/c');
    expect(problems).toEqual([]);
    expect(signal).toEqual({
      triggeredAt: '2026-01-26T14:37:07.000Z',
      contextPct: 70,
      threshold: 70,
      source: 'statusline',
    });
  });

  it('accepts an empty file as a bare signal', () => {
    for (const t of ['', '\n', '   ']) {
      expect(parseCheckpointSignal(t, '/c')).toEqual({
        signal: { triggeredAt: null, contextPct: null, threshold: null, source: null },
        problems: [],
      });
    }
  });

  it('takes the last line of an appended file, and reads garbage as a bare signal with a problem', () => {
    const two =
      '{"triggered_at":"2026-01-26T14:00:00Z","context_pct":71}\n{"triggered_at":"2026-01-26T15:00:00Z","context_pct":"75%"}\n';
    expect(parseCheckpointSignal(two, '/c').signal).toMatchObject({
      triggeredAt: '2026-01-26T15:00:00.000Z',
      contextPct: 75,
    });
    const bad = parseCheckpointSignal('checkpoint please \u001b[31m', '/c');
    expect(bad.signal.contextPct).toBeNull();
    expect(bad.problems).toEqual([
      { file: '/c', message: 'checkpoint-needed is not a JSON object; read as a bare signal' },
    ]);
  });
});

describe('parseContextMetrics', () => {
  it('reads the real sample, falls back to tokens / max, and reports a file without either', () => {
    expect(parseContextMetrics(json('context-metrics.json'), '/m').metrics).toEqual({
      usedPct: 25,
      timestamp: '2026-01-26T19:26:51.000Z',
    });
    expect(parseContextMetrics({ tokens: 150000, max: 200000 }, '/m').metrics?.usedPct).toBe(75);
    expect(parseContextMetrics({ tokens: 1, max: 0 }, '/m').problems[0]?.message).toBe(
      'context metrics have no used_pct',
    );
    expect(parseContextMetrics(null, '/m').metrics).toBeNull();
  });
});

describe('parseSessionEntry', () => {
  it('reports the real sample: a relative worktree with a relative repo root', () => {
    const { root, problems } = parseSessionEntry(json('tina-sessions.my-feature.json'), '/s.json');
    expect(root).toBeNull();
    expect(problems[0]?.message).toContain('is relative');
  });

  it('reads absolute paths, resolves relative ones against an absolute repo_root, and takes older key names', () => {
    expect(parseSessionEntry({ worktree_path: '/w/x/../y' }, '/s').root).toBe('/w/y');
    expect(parseSessionEntry({ worktree_path: 'wt/a', repo_root: '/repo' }, '/s').root).toBe('/repo/wt/a');
    for (const key of ['worktree', 'path', 'worktreePath', 'cwd']) {
      expect(parseSessionEntry({ [key]: '/p' }, '/s').root).toBe('/p');
    }
  });

  it('refuses entries without a path, non-objects, and paths with control characters', () => {
    expect(parseSessionEntry({ feature: 'x' }, '/s').problems[0]?.message).toBe('session entry names no worktree path');
    expect(parseSessionEntry('x', '/s').root).toBeNull();
    const r = parseSessionEntry({ worktree_path: '/w/\u001b[2Jx' }, '/s');
    expect(r).toEqual({ root: null, problems: [{ file: '/s', message: 'worktree path contains control characters' }] });
  });
});

describe('review verdicts', () => {
  it('normalizes verdict words, kinds and task ids', () => {
    expect(
      [
        'approved',
        'pass',
        'PASSED',
        'rejected',
        'fail',
        'changes_requested',
        'Changes requested',
        'gaps',
        'pending',
        'maybe',
        3,
      ].map(normalizeVerdict),
    ).toEqual([
      'passed',
      'passed',
      'passed',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'pending',
      'pending',
      'pending',
    ]);
    expect(
      [
        'spec_review',
        'Spec review',
        'spec-review',
        'quality_review',
        'code-quality',
        'Code quality review',
        'security',
      ].map(normalizeKind),
    ).toEqual([
      'spec-review',
      'spec-review',
      'spec-review',
      'code-quality',
      'code-quality',
      'code-quality',
      'security',
    ]);
    expect(['task-3', 'Task 3', '#3', 3, '3'].map(normalizeTaskId)).toEqual(['3', '3', '3', '3', '3']);
  });

  it('reads an object keyed by task id with per-kind verdicts or a bare verdict', () => {
    const { reviews, problems } = parseReviewVerdicts(
      {
        'task-3': { spec_review: 'passed', quality_review: 'pending', worker: 'worker-1' },
        '4': { 'spec-review': 'approved', 'code-quality': 'rejected', reviewer: 'rev-1' },
        '5': 'changes_requested',
        '6': 42,
      },
      '/s',
      '2',
    );
    expect(reviews).toEqual([
      { taskId: '3', kind: 'code-quality', verdict: 'pending', reviewer: null },
      { taskId: '3', kind: 'spec-review', verdict: 'passed', reviewer: null },
      { taskId: '4', kind: 'code-quality', verdict: 'failed', reviewer: 'rev-1' },
      { taskId: '4', kind: 'spec-review', verdict: 'passed', reviewer: 'rev-1' },
      { taskId: '5', kind: 'review', verdict: 'failed', reviewer: null },
    ]);
    expect(problems.map((p) => p.message)).toEqual(['review verdict for task 6 is neither a word nor an object']);
  });

  it('reads a list of entries, and tina consensus verdicts as phase reviews', () => {
    const { reviews, problems } = parseReviewVerdicts(
      [
        { taskId: 'task-1', kind: 'spec_review', verdict: 'pass', reviewer: 'spec-reviewer' },
        { task: 2, kind: 'quality', verdict: 'fail' },
        { result: 'gaps', issues: ['missing tests'] },
        { nothing: true },
      ],
      '/s',
      '2',
    );
    expect(reviews).toEqual([
      { taskId: '1', kind: 'spec-review', verdict: 'passed', reviewer: 'spec-reviewer' },
      { taskId: '2', kind: 'code-quality', verdict: 'failed', reviewer: null },
      { taskId: 'phase-2', kind: 'phase-review', verdict: 'failed', reviewer: null },
    ]);
    expect(problems.map((p) => p.message)).toEqual(['review verdict 4 names no verdict']);
    expect(parseReviewVerdicts('weird', '/s', null).problems[0]?.message).toBe(
      'review verdicts are neither an object nor a list',
    );
  });

  it('lets the first source win when merging', () => {
    const merged = mergeReviews(
      [{ taskId: '3', kind: 'spec-review', verdict: 'failed', reviewer: 'x' }],
      [
        { taskId: '3', kind: 'spec-review', verdict: 'passed', reviewer: null },
        { taskId: '10', kind: 'spec-review', verdict: 'passed', reviewer: null },
      ],
    );
    expect(merged).toEqual([
      { taskId: '3', kind: 'spec-review', verdict: 'failed', reviewer: 'x' },
      { taskId: '10', kind: 'spec-review', verdict: 'passed', reviewer: null },
    ]);
  });
});
