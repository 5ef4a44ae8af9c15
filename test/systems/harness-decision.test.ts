/**
 * Decision lines of the harness's run.log as its main loop logs them (Papercusp/papercusp-app
 * libs/papercusp/packages/orchestrator: `ORCH decision: ${raw} (role=${role})`,
 * `ORCH batch (${n} decisions, role=${role}): ${raw} | ${raw}`). Fixtures: test/fixtures/harness.
 */
import { describe, expect, it } from 'vitest';
import { isEscalation, parseDecisionLine } from '../../src/systems/harness/decision.js';
import { readFixture } from '../helpers/fixtures.js';

const lastLine = (rel: string) =>
  readFixture(rel)
    .trim()
    .split('\n')
    .filter((l) => l.includes('ORCH '))
    .pop() ?? '';

describe('parseDecisionLine', () => {
  it('keeps the role out of the reason', () => {
    expect(parseDecisionLine(lastLine('harness/escalate-role/.harness/logs/run.log.fixture'))).toEqual({
      verb: 'ESCALATE',
      rest: 'F-007',
      role: 'orchestrator',
      batch: null,
    });
    expect(parseDecisionLine('[2026-05-08T12:00:00.000Z] ORCH decision: ESCALATE (role=orchestrator)')).toEqual({
      verb: 'ESCALATE',
      rest: '',
      role: 'orchestrator',
      batch: null,
    });
    expect(parseDecisionLine('ORCH decision: NEXT_WORKER F-PAY-007 N=2 (role=ceo)')).toMatchObject({
      verb: 'NEXT_WORKER',
      rest: 'F-PAY-007 N=2',
      role: 'ceo',
    });
  });

  it('reads older lines without a role, and separators before a reason', () => {
    expect(parseDecisionLine('ORCH decision: ESCALATE: validator and worker disagree')).toEqual({
      verb: 'ESCALATE',
      rest: 'validator and worker disagree',
      role: null,
      batch: null,
    });
    expect(parseDecisionLine('ORCH decision: done')?.verb).toBe('DONE');
  });

  it('understands a batch line', () => {
    expect(parseDecisionLine(lastLine('harness/batch/.harness/logs/run.log.fixture'))).toEqual({
      verb: 'NEXT_WORKER',
      rest: 'NEXT_WORKER F-AUTH-001 | NEXT_WORKER F-PAY-007 N=2 | NEXT_WORKER F-DOCS-012',
      role: 'orchestrator',
      batch: ['NEXT_WORKER F-AUTH-001', 'NEXT_WORKER F-PAY-007 N=2', 'NEXT_WORKER F-DOCS-012'],
    });
  });

  it('is null for lines that hold no decision', () => {
    for (const line of [
      '  COST total=1.2040 (no cap configured)',
      'HOOK on-escalate running (log: x)',
      'ORCH batch (0 decisions, role=o): ',
      '',
    ]) {
      expect(parseDecisionLine(line)).toBeNull();
    }
  });

  it('counts the deprecated CHECKPOINT verb as an escalation, like the run loop does', () => {
    const d = parseDecisionLine(lastLine('harness/checkpoint-verb/.papercusp/logs/run.log.fixture'));
    expect(d).toMatchObject({ verb: 'CHECKPOINT', rest: 'milestone-1' });
    expect(isEscalation(d?.verb ?? '')).toBe(true);
    expect(isEscalation('ESCALATE')).toBe(true);
    expect(isEscalation('NEXT_WORKER')).toBe(false);
  });
});

describe('parseDecisionLine on odd lines', () => {
  it('strips repeated role suffixes; the role is the last one named', () => {
    expect(parseDecisionLine('ORCH decision: ESCALATE x (role=a) (role=b)')).toMatchObject({ rest: 'x', role: 'b' });
  });
});
