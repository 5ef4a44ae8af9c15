/**
 * SAGE's human gate as the real orchestrator leaves it (fixtures in test/fixtures/sage, shaped after
 * kwg/sage-method bin/orchestrate-v2.sh and scripts/webhook-receiver.sh: see the README there): the
 * webhook's JSON answer, an answer consumed and logged, the stream-json context, the create-epic state.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunSchema } from '../../src/model/schema.js';
import type { Run } from '../../src/model/model.js';
import { readSageRun } from '../../src/systems/sage/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { copyFixture, setMtime, tempDirsPerTest } from '../helpers/fixtures.js';

const settings = { ...DEFAULT_READ_SETTINGS, now: Date.parse('2026-05-08T14:00:00Z') };
const T = (iso: string): number => Date.parse(iso);
const tempDir = tempDirsPerTest('tower-sage-gate-');

/** A copy of a fixture project (its `*.log.fixture` renamed to `*.log`), with the state and signal dated 12:00. */
function project(fixture: string): { root: string; stateDir: string } {
  const root = copyFixture(`sage/${fixture}`, tempDir());
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (rel.endsWith('.log.fixture'))
      fs.renameSync(path.join(root, rel), path.join(root, rel.slice(0, -'.fixture'.length)));
  }
  const stateDir = path.join(root, '.sage', 'state');
  for (const f of fs.readdirSync(stateDir)) setMtime(path.join(stateDir, f), T('2026-05-08T12:00:00Z'));
  return { root, stateDir };
}

function read(p: { root: string; stateDir: string }): Run {
  const run = readSageRun(p.root, p.stateDir, settings);
  RunSchema.parse(run);
  return run;
}

describe('SAGE: the resume signal in either form', () => {
  it('the webhook JSON approval, not yet read, answers the gate as APPROVED with no problem: the orchestrator approves it too', () => {
    const p = project('resume-json');
    setMtime(path.join(p.stateDir, '.resume-signal'), T('2026-05-08T12:30:00Z'));
    const run = read(p);
    // orchestrate-v2.sh finds no `STATUS:` in it, reads `{"STATUS": "APPROVED", …}` and goes on as approved.
    expect(run.problems).toEqual([]);
    expect(run.gates).toEqual([
      expect.objectContaining({
        id: 'hitl',
        state: 'granted',
        grantable: false,
        title: 'Approve the refund rules for story 2',
      }),
    ]);
    expect(run.gates[0]?.body).toContain(
      'Answered in .resume-signal: APPROVED, written 2026-05-08T12:30:00.000Z; the orchestrator has not read it yet.',
    );
    expect(run.status).toBe('running');
  });

  it('a webhook JSON answer that says otherwise than approved is a problem: the orchestrator goes on as APPROVED', () => {
    const p = project('resume-json');
    const file = path.join(p.stateDir, '.resume-signal');
    for (const status of ['REVISE', 'HALT', 'DISCUSS', 'UNCLEAR']) {
      fs.writeFileSync(file, `{"status": "${status}", "timestamp": "2026-05-08T12:30:00+00:00"}\n`);
      setMtime(file, T('2026-05-08T12:30:00Z'));
      const run = read(p);
      expect(run.problems).toEqual([
        {
          file,
          message: `the orchestrator acts only on a \`STATUS: WORD\` line in capitals (or the word alone): "{"status": "${status}"}" goes on as APPROVED`,
        },
      ]);
      expect(run.gates[0]?.body).toContain(
        `Answered in .resume-signal: APPROVED (the file says {"status": "${status}"};`,
      );
    }
  });

  it('a lower-case STATUS: rejected is a problem; STATUS: APPROVED, a bare approved or halt are none', () => {
    const p = project('resume-json');
    const file = path.join(p.stateDir, '.resume-signal');
    const problems = (text: string) => {
      fs.writeFileSync(file, text);
      setMtime(file, T('2026-05-08T12:30:00Z'));
      return read(p).problems.map((x) => x.message);
    };
    expect(problems('STATUS: rejected\n')).toEqual([
      'the orchestrator acts only on a `STATUS: WORD` line in capitals (or the word alone): "STATUS: rejected" goes on as APPROVED',
    ]);
    expect(problems('STATUS: APPROVED\n')).toEqual([]);
    expect(problems('approved\n')).toEqual([]);
    expect(problems('halt\n')).toEqual([]);
    expect(read(p).gates[0]?.title).toBe('Approve the refund rules for story 2 (answered HALT)');
  });

  it('a JSON answer older than the signal leaves the gate pending', () => {
    const p = project('resume-json');
    setMtime(path.join(p.stateDir, '.resume-signal'), T('2026-05-08T11:00:00Z'));
    const run = read(p);
    expect(run.gates[0]).toMatchObject({ state: 'pending', grantable: true });
    expect(run.status).toBe('waiting');
  });
});

describe('SAGE: an answer the orchestrator consumed', () => {
  it('is not pending and not grantable: the log says it was read after the signal', () => {
    const p = project('consumed');
    expect(fs.existsSync(path.join(p.stateDir, '.resume-signal'))).toBe(false);
    const run = read(p);
    expect(run.problems).toEqual([]);
    const g = run.gates[0];
    expect(g).toMatchObject({ id: 'hitl', state: 'granted', grantable: false, since: '2026-05-08T12:00:00.000Z' });
    expect(g?.body).toContain(
      'Answered: APPROVED at 2026-05-08T12:30:17+00:00. The orchestrator read and removed .resume-signal',
    );
    expect(run.status).toBe('running');
  });

  it('a HITL signal newer than the last answer is the next gate: pending again', () => {
    const p = project('consumed');
    setMtime(path.join(p.stateDir, '.last_signal'), T('2026-05-08T12:45:00Z'));
    const run = read(p);
    expect(run.gates[0]).toMatchObject({ state: 'pending', grantable: true });
    expect(run.status).toBe('waiting');
  });

  it('a REVISE that was consumed answers the gate too, and says so in the title', () => {
    const p = project('consumed');
    const log = path.join(p.root, '.sage', 'logs', 'orchestrator-v2.log');
    fs.appendFileSync(
      log,
      '[2026-05-08T12:40:00+00:00] [INFO] Resume signal detected!\n[2026-05-08T12:40:00+00:00] [INFO] Resume status: REVISE\n[2026-05-08T12:40:00+00:00] [WARN] Revision requested\n',
    );
    setMtime(path.join(p.stateDir, '.last_signal'), T('2026-05-08T12:35:00Z'));
    const g = read(p).gates[0];
    expect(g).toMatchObject({
      state: 'granted',
      grantable: false,
      title: 'Approve the refund rules for story 2 (answered REVISE)',
    });
  });

  it('a consumed webhook JSON approval reads as APPROVED, not as the line the orchestrator logged', () => {
    const p = project('consumed');
    const log = path.join(p.root, '.sage', 'logs', 'orchestrator-v2.log');
    fs.appendFileSync(
      log,
      '[2026-05-08T12:40:00+00:00] [INFO] Resume signal detected!\n[2026-05-08T12:40:00+00:00] [INFO] Resume status: {"STATUS": "APPROVED", "TIMESTAMP": "2026-05-08T12:39:00+00:00"}\n[2026-05-08T12:40:00+00:00] [WARN] Unknown status: {"STATUS": "APPROVED", "TIMESTAMP": "2026-05-08T12:39:00+00:00"} - treating as approved\n',
    );
    setMtime(path.join(p.stateDir, '.last_signal'), T('2026-05-08T12:35:00Z'));
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.gates[0]).toMatchObject({ state: 'granted', title: 'Approve the refund rules for story 2' });
    expect(run.gates[0]?.body).toContain('Answered: APPROVED at 2026-05-08T12:40:00+00:00.');
    // A HALT sent as JSON was approved all the same: the gate says what it read.
    fs.appendFileSync(
      log,
      '[2026-05-08T12:50:00+00:00] [INFO] Resume signal detected!\n[2026-05-08T12:50:00+00:00] [INFO] Resume status: {"STATUS": "HALT"}\n',
    );
    setMtime(path.join(p.stateDir, '.last_signal'), T('2026-05-08T12:45:00Z'));
    expect(read(p).gates[0]?.body).toContain(
      'Answered: APPROVED (it read {"STATUS": "HALT"}) at 2026-05-08T12:50:00+00:00.',
    );
  });

  it('an orchestrator log that cannot be read is a problem naming it; the gate stays pending', () => {
    const p = project('consumed');
    const log = path.join(p.root, '.sage', 'logs', 'orchestrator-v2.log');
    fs.rmSync(log);
    fs.mkdirSync(log);
    const run = read(p);
    expect(run.problems).toEqual([{ file: log, message: 'not a regular file' }]);
    expect(run.gates[0]).toMatchObject({ state: 'pending' });
  });

  it('shows the signal context as its text, not the stream-json', () => {
    const body = read(project('consumed')).gates[0]?.body ?? '';
    expect(body).toContain('Story EPIC-9-story-2 plan is ready: refunds are prorated to the day.');
    expect(body).toContain('Waiting for human approval of the refund rules.');
    expect(body).not.toContain('"type"');
    expect(body).not.toContain('session_id');
  });
});

describe('SAGE: the create-epic state', () => {
  it('epic-<id>-state.json gives the phase and the stories', () => {
    const run = read(project('create-epic'));
    expect(run.problems).toEqual([]);
    expect(run.name).toBe('epic-12');
    expect(run.phase).toEqual({ current: 'story_creation', total: null, status: 'in_progress' });
    expect(run.tasks).toEqual([
      { id: '12-1', subject: 'Meter events ingestion', status: 'ready', owner: null, blockedBy: [] },
      { id: '12-2', subject: 'Rating engine', status: 'created', owner: null, blockedBy: [] },
      { id: '12-3', subject: 'Invoice line items', status: 'creating', owner: null, blockedBy: ['12-2'] },
      { id: '12-4', subject: 'Proration', status: 'failed', owner: null, blockedBy: ['12-2'] },
    ]);
    expect(run.gates).toEqual([]);
    expect(run.status).toBe('running');
  });

  it('is complete once its phase is complete', () => {
    const p = project('create-epic');
    const file = path.join(p.stateDir, 'epic-12-state.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(fs.readFileSync(file, 'utf8')),
        current_phase: 'complete',
        end_time: '2026-05-08T13:00:00Z',
      }),
    );
    expect(read(p).status).toBe('complete');
  });
});

describe('SAGE: the phase-protocol scripts', () => {
  // Written by kwg/sage-method's scripts/phase-protocols/init-phase.sh and planning-phase.sh, run
  // as they are in a scratch repository (fixtures phase-protocol-init, phase-protocol-planning).
  it('init-phase.sh: checkpoint.json gives the phase, session.json is no problem', () => {
    const run = read(project('phase-protocol-init'));
    expect(run.problems).toEqual([]);
    expect(run.phase).toEqual({ current: 'init', total: null, status: 'in_progress' });
    expect(run.tasks).toEqual([]);
    expect(run.status).toBe('running');
  });

  it('planning-phase.sh: the phase, the epic and the story it filed, owned by the session', () => {
    const run = read(project('phase-protocol-planning'));
    expect(run.problems).toEqual([]);
    expect(run.name).toBe('epic-1');
    expect(run.phase).toEqual({ current: 'planning', total: null, status: 'in_progress' });
    expect(run.tasks).toEqual([
      {
        id: '1-1-test-story',
        subject: 'planning',
        status: 'in_progress',
        owner: 'session-1795703266-10349',
        blockedBy: [],
      },
    ]);
    expect(run.status).toBe('running');
  });

  it('complete-phase.sh: the story is done and the run complete once session.json is gone', () => {
    const p = project('phase-protocol-planning');
    const file = path.join(p.stateDir, 'checkpoint.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(fs.readFileSync(file, 'utf8')),
        phase: 'complete',
        branch_merged: true,
        story_status: 'done',
        timestamp: '2026-11-26T15:00:00+00:00',
      }),
    );
    fs.rmSync(path.join(p.stateDir, 'session.json'));
    const run = read(p);
    expect(run.problems).toEqual([]);
    expect(run.tasks).toEqual([
      { id: '1-1-test-story', subject: 'story 1-1-test-story', status: 'done', owner: null, blockedBy: [] },
    ]);
    expect(run.status).toBe('complete');
  });

  it('a session.json of another shape is still a problem', () => {
    const p = project('phase-protocol-init');
    fs.writeFileSync(path.join(p.stateDir, 'session.json'), '{"started": "2026-11-26T14:27:46+00:00"}');
    expect(read(p).problems.map((x) => x.message)).toEqual(['not a SAGE checkpoint (keys: started)']);
  });
});
