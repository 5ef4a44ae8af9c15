/**
 * dotagent as its skills really leave the files (fixtures in test/fixtures/dotagent, see the README
 * there): on completion `current_phase` has already advanced (skills/clouder0/checkpoint/SKILL.md
 * "On Completion"), and retried tasks stay `running` with no output (error-recovery SKILL.md
 * "Retry State Tracking"), an orphan only when the workflow is not live.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import { LIVE_WITHIN_MS, readDotagentRun, workflowLive } from '../../src/systems/dotagent/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { ReadSettings } from '../../src/systems/types.js';
import { copyFixture, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';

const NOW = Date.parse('2026-01-16T11:00:00Z');
const tempDir = tempDirsPerTest('tower-dotagent-real-');

/** A copy of a fixture project with its state files last changed an hour before NOW. */
function project(fixture: string): { root: string; stateDir: string } {
  const root = copyFixture(`dotagent/${fixture}`, tempDir());
  const stateDir = path.join(root, 'memory', 'state');
  for (const f of fs.readdirSync(stateDir)) setMtime(path.join(stateDir, f), NOW - 60 * 60_000);
  return { root, stateDir };
}

function read(p: { root: string; stateDir: string }, over: Partial<ReadSettings> = {}): Run {
  const run = readDotagentRun(p.root, p.stateDir, { ...DEFAULT_READ_SETTINGS, now: NOW, ...over });
  RunSchema.parse(run);
  return run;
}

const orphans = (run: Run) => run.problems.filter((x) => x.message.includes('orphaned'));

describe('dotagent: the phases awaiting approval', () => {
  it('is the completed phase without an approval, never the current phase it advanced to', () => {
    const p = project('advanced');
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.phase).toEqual({ current: 'IMPLEMENTATION', total: 5, status: 'complete' });
    expect(run.gates.map((g) => [g.id, g.state, g.grantable])).toEqual([
      ['ARCHITECTURE', 'pending', true],
      ['REQUIREMENTS', 'granted', false],
    ]);
    expect(run.gates[0]).toMatchObject({
      since: '2026-01-16T09:55:00.000Z',
      title: 'ARCHITECTURE complete — awaiting approval',
    });
    expect(run.status).toBe('waiting');
  });

  it('every completed phase still unapproved waits, in order', () => {
    const p = project('advanced');
    const file = path.join(p.stateDir, 'phase.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...v, user_checkpoints: [] }));
    expect(read(p).gates.map((g) => [g.id, g.state])).toEqual([
      ['REQUIREMENTS', 'pending'],
      ['ARCHITECTURE', 'pending'],
    ]);
  });

  it('the last phase, REFLECTION, waits once it is completed (it has no next phase to advance to)', () => {
    const p = project('advanced');
    const file = path.join(p.stateDir, 'phase.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const phases = ['REQUIREMENTS', 'ARCHITECTURE', 'IMPLEMENTATION', 'VERIFICATION', 'REFLECTION'];
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...v,
        current_phase: 'REFLECTION',
        phase_status: 'complete',
        completed_phases: phases.map((phase) => ({ phase, completed_at: '2026-01-16T10:00:00Z' })),
        user_checkpoints: phases.slice(0, 4).map((phase) => ({ phase, approved_at: '2026-01-16T10:00:00Z' })),
      }),
    );
    const run = read(p);
    expect(run.gates.filter((g) => g.state === 'pending').map((g) => g.id)).toEqual(['REFLECTION']);
  });
});

describe('dotagent: orphaned running tasks are a resume-time check', () => {
  it('retried tasks with no output are orphans only when the workflow is not live', () => {
    const p = project('retrying');
    const run = read(p);
    expect(run.tasks.map((t) => [t.id, t.status])).toEqual([
      ['task-001', 'running'],
      ['task-002', 'running'],
    ]);
    expect(orphans(run).map((x) => x.message)).toEqual([
      'task task-001 is running with no output (orphaned: the workflow is not live)',
      'task task-002 is running with no output (orphaned: the workflow is not live)',
    ]);
  });

  it('a tmux pane sitting in the project (or below it) makes it live: no orphans', () => {
    const p = project('retrying');
    expect(orphans(read(p, { paneCwds: [p.root] }))).toEqual([]);
    expect(orphans(read(p, { paneCwds: ['/elsewhere', path.join(p.root, 'src', 'api')] }))).toEqual([]);
    // A sibling whose name starts the same is another project.
    expect(orphans(read(p, { paneCwds: [`${p.root}-old`] }))).toHaveLength(2);
  });

  it('phase.json or execution.json changed in the last 30 minutes makes it live', () => {
    const p = project('retrying');
    setMtime(path.join(p.stateDir, 'execution.json'), NOW - 5 * 60_000);
    expect(orphans(read(p))).toEqual([]);
    setMtime(path.join(p.stateDir, 'execution.json'), NOW - LIVE_WITHIN_MS - 1000);
    setMtime(path.join(p.stateDir, 'phase.json'), NOW - 29 * 60_000);
    expect(orphans(read(p))).toEqual([]);
    setMtime(path.join(p.stateDir, 'phase.json'), NOW - 31 * 60_000);
    expect(orphans(read(p))).toHaveLength(2);
  });

  it('workflowLive never takes a file from a skewed clock for a recent change', () => {
    const p = project('retrying');
    const files = [path.join(p.stateDir, 'phase.json')];
    setMtime(files[0] ?? '', NOW + 60 * 60_000);
    expect(workflowLive(p.root, files, { ...DEFAULT_READ_SETTINGS, now: NOW })).toBe(false);
    setMtime(files[0] ?? '', NOW + 60_000);
    expect(workflowLive(p.root, files, { ...DEFAULT_READ_SETTINGS, now: NOW })).toBe(true);
  });
});
