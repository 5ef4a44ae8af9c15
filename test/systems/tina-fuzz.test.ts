import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import { parseTeamConfig } from '../../src/systems/claude-teams/team-config.js';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { readMarkdown } from '../../src/systems/tina/markdown-reader.js';
import type { TinaFiles } from '../../src/systems/tina/files.js';
import { parseReviewVerdicts } from '../../src/systems/tina/reviews.js';
import { assembleTinaRun } from '../../src/systems/tina/run.js';
import {
  parseCheckpointSignal,
  parseContextMetrics,
  parsePhaseStatus,
  parseSessionEntry,
  parseSupervisorState,
} from '../../src/systems/tina/state.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { Team } from '../../src/systems/types.js';
import { HANDOFF_FIXTURES, readFixture } from '../helpers/fixtures.js';
import { fieldString, fieldValue, RUNS, truncated, truncatedJson } from '../helpers/fuzz.js';
import { expectPrintable } from '../helpers/printable.js';

const nastyString = fieldString([
  'executing',
  'blocked',
  'complete',
  'planning',
  'hibernating',
  '2',
  '2.5',
  'task-3',
  'passed',
  'rejected',
  'gaps',
  '2026-01-30T12:00:00Z',
  '/abs/path',
  'rel/path',
]);
const value = fieldValue(nastyString);
const verdicts = fc.oneof(
  fc.dictionary(
    nastyString,
    fc.oneof(
      value,
      fc.record({ spec_review: value, quality_review: value, worker: value, reviewer: value }, { requiredKeys: [] }),
    ),
  ),
  fc.array(
    fc.record(
      { taskId: value, task: value, kind: value, verdict: value, result: value, reviewer: value },
      { requiredKeys: [] },
    ),
    { maxLength: 5 },
  ),
  value,
);
const phaseEntry = fc.record(
  { status: value, blocked_reason: value, blocked_at: value, review_verdicts: verdicts },
  { requiredKeys: [] },
);
const supervisorShaped = fc.record(
  {
    feature: value,
    current_phase: value,
    total_phases: value,
    status: value,
    design_doc_path: value,
    phases: fc.oneof(
      fc.dictionary(fc.constantFrom('1', '2', '2.5', 'x'), phaseEntry),
      fc.array(phaseEntry, { maxLength: 3 }),
      value,
    ),
  },
  { requiredKeys: [] },
);
const phaseShaped = fc.record(
  {
    status: value,
    started_at: value,
    blocked_at: value,
    heartbeat_at: value,
    reason: value,
    context: fc.oneof(fc.dictionary(nastyString, value), value),
  },
  { requiredKeys: [] },
);
const signalText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({ triggered_at: value, context_pct: value, threshold: value, source: value }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  truncated('samples/tina/checkpoint-needed'),
);

describe('tina JSON parsers never throw and return only printable text', () => {
  const json = (shaped: fc.Arbitrary<unknown>, sample: string) =>
    fc.oneof(fc.anything(), shaped, truncatedJson(sample));

  it('parseSupervisorState', () => {
    const sample = fc.oneof(
      json(supervisorShaped, 'samples/tina/supervisor-state.e2e.json'),
      truncatedJson('samples/tina/supervisor-state.minimal.json'),
    );
    fc.assert(
      fc.property(sample, (v) => {
        const r = parseSupervisorState(v, '/s.json');
        if (r.state === null) expect(r.problems.length).toBeGreaterThan(0);
        expectPrintable(r);
      }),
      RUNS,
    );
  });

  it('parsePhaseStatus', () => {
    fc.assert(
      fc.property(json(phaseShaped, 'samples/tina/phase-status.blocked.json'), (v) =>
        expectPrintable(parsePhaseStatus(v, '/p.json')),
      ),
      RUNS,
    );
  });

  it('parseCheckpointSignal', () => {
    fc.assert(
      fc.property(signalText, (t) => {
        const r = parseCheckpointSignal(t, '/c');
        expect(r.signal).toBeDefined();
        expectPrintable(r);
      }),
      RUNS,
    );
  });

  it('parseContextMetrics', () => {
    const shaped = fc.record({ used_pct: value, tokens: value, max: value, timestamp: value }, { requiredKeys: [] });
    fc.assert(
      fc.property(json(shaped, 'samples/tina/context-metrics.json'), (v) =>
        expectPrintable(parseContextMetrics(v, '/m')),
      ),
      RUNS,
    );
  });

  it('parseSessionEntry returns only absolute, printable paths', () => {
    const shaped = fc.record(
      { feature: value, worktree_path: value, worktree: value, path: value, repo_root: value },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(json(shaped, 'samples/tina/tina-sessions.my-feature.json'), (v) => {
        const r = parseSessionEntry(v, '/s');
        if (r.root !== null) expect(path.isAbsolute(r.root)).toBe(true);
        else expect(r.problems.length).toBeGreaterThan(0);
        expectPrintable(r);
      }),
      RUNS,
    );
  });

  it('parseReviewVerdicts', () => {
    fc.assert(
      fc.property(verdicts, fc.option(nastyString), (v, phase) => expectPrintable(parseReviewVerdicts(v, '/s', phase))),
      RUNS,
    );
  });
});

describe('assembling a tina run from any parsed files', () => {
  const team = fc
    .record({
      name: fc.constantFrom('f-orchestration', 'f-phase-1', 'f-phase-2', 'phase-1-execution', 'other'),
      members: fc.array(
        fc.record(
          { name: value, tmuxPaneId: value, cwd: fc.constantFrom('/root', '/elsewhere', 'rel') },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    })
    .map((json) => parseTeamConfig(json, '/c/teams/x/config.json', '/c/tasks/x').team)
    .filter((t): t is Team => t !== null);
  const handoffText = fc.oneof(
    fc.constantFrom(...HANDOFF_FIXTURES.map(readFixture)),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
  const files = fc
    .record({
      supervisor: fc.option(supervisorShaped),
      phase: fc.option(phaseShaped),
      signal: fc.option(signalText),
      metrics: fc.option(fc.record({ used_pct: value }, { requiredKeys: [] })),
      handoff: fc.option(fc.tuple(handoffText, fc.integer({ min: 0, max: 2e12 }))),
      current: fc.option(fc.constantFrom('1', '2', '2.5')),
    })
    .map((f): TinaFiles => {
      const sup =
        f.supervisor === null
          ? null
          : parseSupervisorState(f.supervisor, '/root/.claude/tina/supervisor-state.json').state;
      return {
        stateDir: '/root/.claude/tina',
        supervisorFile: '/root/.claude/tina/supervisor-state.json',
        supervisorPresent: f.supervisor !== null,
        supervisor: sup,
        currentPhase: sup?.currentPhase ?? f.current,
        phaseStatusFile: f.phase === null ? null : '/root/.claude/tina/phase-1/status.json',
        phaseStatus: f.phase === null ? null : parsePhaseStatus(f.phase, '/p').status,
        signal:
          f.signal === null
            ? null
            : {
                file: '/root/.claude/tina/checkpoint-needed',
                mtimeMs: 1.7e12,
                value: parseCheckpointSignal(f.signal, '/c').signal,
              },
        metrics: f.metrics === null ? null : parseContextMetrics(f.metrics, '/m').metrics,
        handoff:
          f.handoff === null
            ? null
            : {
                file: '/root/h.md',
                mtimeMs: f.handoff[1],
                value: parseHandoff(f.handoff[0], '/h', readMarkdown).handoff,
              },
        problems: [],
      };
    });

  it('always yields a run that matches the snapshot schema, with printable text', () => {
    fc.assert(
      fc.property(files, fc.array(team, { maxLength: 4 }), fc.integer({ min: 0, max: 2e12 }), (f, teams, now) => {
        const { run, teamNames } = assembleTinaRun('/root', f, teams, { ...DEFAULT_READ_SETTINGS, now });
        RunSchema.parse(run);
        for (const name of teamNames) expect(teams.map((t) => t.name)).toContain(name);
        if (run.status === 'waiting') expect(run.gates.some((g) => g.id === 'context')).toBe(true);
        expectPrintable(run);
      }),
      RUNS,
    );
    // Each case assembles a whole run and checks it against the schema: on a busy two-core machine
    // the runs together have taken more than the default 30 s.
  }, 120_000);
});
