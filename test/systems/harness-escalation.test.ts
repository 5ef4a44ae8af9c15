/**
 * The harness's escalations as the real harness marks them (fixtures in test/fixtures/harness,
 * shaped after Papercusp/papercusp-app: see the README there): `escalation.md` in the state dir
 * whatever the log says, the deprecated CHECKPOINT verb, `(role=…)` suffixes and `ORCH batch` lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Run } from '../../src/model/model.js';
import { readHarnessRun } from '../../src/systems/harness/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { copyFixture, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';

const NOW = Date.parse('2026-05-08T13:00:00Z');
const settings = { ...DEFAULT_READ_SETTINGS, now: NOW };
const tempDir = tempDirsPerTest('tower-harness-esc-');

/** A copy of a fixture project, its `*.log.fixture` files renamed to `*.log`; returns root and state dir. */
function project(fixture: string): { root: string; stateDir: string } {
  const root = copyFixture(`harness/${fixture}`, tempDir());
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (rel.endsWith('.log.fixture'))
      fs.renameSync(path.join(root, rel), path.join(root, rel.slice(0, -'.fixture'.length)));
  }
  const stateDir = ['.papercusp', '.harness'].map((d) => path.join(root, d)).find((d) => fs.existsSync(d)) ?? root;
  return { root, stateDir };
}

const escalation = (run: Run) => run.gates.find((g) => g.kind === 'escalation');

describe('harness escalations', () => {
  it('escalation.md alone escalates: a rejected plan (exit 7) logs no ESCALATE line', () => {
    const { root, stateDir } = project('plan-rejected');
    setMtime(path.join(stateDir, 'escalation.md'), Date.parse('2026-05-08T12:04:40Z'));
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.status).toBe('blocked');
    expect(run.gates).toHaveLength(1);
    expect(escalation(run)).toMatchObject({
      id: 'escalation',
      state: 'pending',
      grantable: false,
      title: 'Escalated: plan review rejected the plan',
      since: '2026-05-08T12:04:40.000Z',
      file: path.join(stateDir, 'escalation.md'),
    });
    expect(escalation(run)?.body).toContain('F-007 has no acceptance test.');
    // Where it stands is still the last decision.
    expect(run.phase).toMatchObject({ current: 'NEXT_SCOPER', status: 'last decision: NEXT_SCOPER' });
  });

  it('escalation.md wins over a log that says DONE; removing it un-escalates', () => {
    const { root, stateDir } = project('plan-rejected');
    fs.appendFileSync(
      path.join(stateDir, 'logs', 'run.log'),
      '[2026-05-08T12:50:00.000Z] ORCH decision: DONE (role=orchestrator)\n',
    );
    expect(readHarnessRun(root, stateDir, settings).status).toBe('blocked');
    fs.rmSync(path.join(stateDir, 'escalation.md'));
    const after = readHarnessRun(root, stateDir, settings);
    expect(escalation(after)).toBeUndefined();
    expect(after.status).toBe('complete');
  });

  it('a bare "# Escalation" heading, an empty or unreadable escalation.md still escalate', () => {
    const { root, stateDir } = project('plan-rejected');
    const file = path.join(stateDir, 'escalation.md');
    fs.writeFileSync(file, '# Escalation\n\nstuck\n');
    expect(escalation(readHarnessRun(root, stateDir, settings))?.title).toBe('Escalated (escalation.md)');
    fs.writeFileSync(file, '');
    expect(escalation(readHarnessRun(root, stateDir, settings))?.body).toContain('escalation.md exists');
    fs.rmSync(file);
    fs.mkdirSync(file);
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.status).toBe('blocked');
    expect(run.problems.map((p) => p.file)).toContain(file);
  });

  it('the deprecated CHECKPOINT verb is an escalation, not a checkpoint', () => {
    const { root, stateDir } = project('checkpoint-verb');
    const run = readHarnessRun(root, stateDir, settings);
    expect(run.status).toBe('blocked');
    expect(run.gates.map((g) => [g.id, g.kind])).toEqual([['escalation', 'escalation']]);
    expect(escalation(run)).toMatchObject({
      title: 'Escalated: CHECKPOINT milestone-1 (deprecated verb, handled as ESCALATE)',
      since: '2026-05-08T12:22:03.002Z',
      file: path.join(stateDir, 'logs', 'run.log'),
    });
    expect(escalation(run)?.body).toContain('deprecated verb');
  });

  it('(role=…) is no part of the title; the body keeps the whole line', () => {
    const { root, stateDir } = project('escalate-role');
    const run = readHarnessRun(root, stateDir, settings);
    expect(escalation(run)?.title).toBe('Escalated: F-007');
    expect(escalation(run)?.body).toContain('ORCH decision: ESCALATE F-007 (role=orchestrator)');
    expect(escalation(run)?.body).toContain('the validator and the worker disagree');
  });

  it('an ORCH batch line is the last decision, shown with all its items', () => {
    const { root, stateDir } = project('batch');
    setMtime(path.join(stateDir, 'logs', 'run.log'), Date.parse('2026-05-08T12:30:15Z'));
    const run = readHarnessRun(root, stateDir, settings);
    expect(escalation(run)).toBeUndefined();
    expect(run.phase).toEqual({
      current: 'NEXT_WORKER',
      total: null,
      status: 'last decision: batch of 3: NEXT_WORKER F-AUTH-001 | NEXT_WORKER F-PAY-007 N=2 | NEXT_WORKER F-DOCS-012',
    });
    expect(run.status).toBe('idle');
  });
});
