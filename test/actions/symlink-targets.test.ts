/**
 * No action writes or deletes through a symlink: for every system, a target file that is a link
 * to something outside the project is refused (or only the link itself is replaced/removed), and
 * the file it points at keeps its bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Gate, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf, tinaFixture, tinaRun } from './kit.js';

const PRECIOUS = 'precious bytes outside the project\n';

function gate(id: string, file: string | null, over: Partial<Gate> = {}): Gate {
  return { id, kind: 'checkpoint', state: 'pending', since: null, grantable: true, title: id, file, ...over };
}

let w: ActionWorld;
let root: string;
let outside: string;
let home: string;
/** A file outside every project that a hostile link points at. */
let victim: string;
beforeEach(() => {
  home = tempDir('tower-home-');
  w = actionWorld(uniqueSocketName(), home);
  root = tempDir('tower-project-');
  outside = tempDir('tower-outside-');
  victim = path.join(outside, 'victim');
  fs.writeFileSync(victim, PRECIOUS);
});
afterEach(() => {
  for (const d of [home, root, outside]) fs.rmSync(d, { recursive: true, force: true });
});

function expectVictimIntact(): void {
  expect(fs.readFileSync(victim, 'utf8')).toBe(PRECIOUS);
  expect(fs.readdirSync(outside)).toEqual(['victim']);
}

/** A SAGE run at its human gate, in the test project. */
function sageAtHumanGate(): { stateDir: string; run: Run } {
  const stateDir = path.join(root, '.sage', 'state');
  writeFile(path.join(stateDir, 'epic-1.json'), { version: '1.0', next_action: { type: 'hitl' } });
  const run = emptyRun('sage', 'epic-1', root, stateDir);
  run.gates = [gate('hitl', path.join(stateDir, 'epic-1.json'), { kind: 'approval' })];
  return { stateDir, run };
}

describe('grants never write through a symlinked target', () => {
  it('harness: a .granted sentinel that is a link is refused as a link', async () => {
    const stateDir = path.join(root, '.harness');
    writeFile(path.join(stateDir, 'checkpoint-go.md'), '# Checkpoint: go (manual request)\n');
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(stateDir, 'checkpoint-go.md.granted'));
    const run = emptyRun('harness', 'shop', root, stateDir);
    run.gates = [gate('go', path.join(stateDir, 'checkpoint-go.md'))];
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'go' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expect(fs.existsSync(path.join(outside, 'not-yet'))).toBe(false);
    expectVictimIntact();
  });

  it('SAGE: a .resume-signal linked outside is refused, the linked file untouched', async () => {
    const { stateDir, run } = sageAtHumanGate();
    fs.symlinkSync(victim, path.join(stateDir, '.resume-signal'));
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expectVictimIntact();
    expect(fs.lstatSync(path.join(stateDir, '.resume-signal')).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(stateDir).sort()).toEqual(['.resume-signal', 'epic-1.json']);
    expect(w.audit()[0]).toMatchObject({ action: 'grant', outcome: 'refused' });
  });

  it('SAGE and dotagent: a link made between the plan and the run is still refused', async () => {
    const { stateDir: sageDir, run: sage } = sageAtHumanGate();
    const dotDir = path.join(root, 'memory', 'state');
    writeFile(
      path.join(dotDir, 'phase.json'),
      '{"completed_phases":[{"phase":"REQUIREMENTS"}],"user_checkpoints":[]}\n',
    );
    const dot = emptyRun('dotagent', 'wf-1', root, dotDir);
    dot.gates = [gate('REQUIREMENTS', path.join(dotDir, 'phase.json'), { kind: 'approval' })];
    w.setSnapshot(snapshotOf(sage, dot));
    const sagePlan = planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' });
    const dotPlan = planAction(w.env, { kind: 'grant', run: 'dotagent:wf-1', gate: 'REQUIREMENTS' });
    expect([sagePlan.refusal, dotPlan.refusal]).toEqual([null, null]);
    // Dangling: an existing answer would be refused earlier, as already answered.
    fs.symlinkSync(path.join(outside, 'answer'), path.join(sageDir, '.resume-signal'));
    fs.copyFileSync(path.join(dotDir, 'phase.json'), path.join(outside, 'phase.json'));
    fs.rmSync(path.join(dotDir, 'phase.json'));
    fs.symlinkSync(path.join(outside, 'phase.json'), path.join(dotDir, 'phase.json'));
    const before = fs.readFileSync(path.join(outside, 'phase.json'), 'utf8');
    expect(await runAction(w.env, sagePlan, {})).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('is a symlink'),
    });
    expect(await runAction(w.env, dotPlan, {})).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('is a symlink'),
    });
    expect(fs.readFileSync(victim, 'utf8')).toBe(PRECIOUS);
    expect(fs.existsSync(path.join(outside, 'answer'))).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'phase.json'), 'utf8')).toBe(before);
  });

  it('SAGE: a grant lock that is a link is refused, never followed', async () => {
    const { stateDir, run } = sageAtHumanGate();
    fs.symlinkSync(victim, path.join(stateDir, '.tower-grant.lock'));
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expectVictimIntact();
    expect(fs.existsSync(path.join(stateDir, '.resume-signal'))).toBe(false);
  });

  it('dotagent: a phase.json linked outside is refused, the linked file untouched', async () => {
    const stateDir = path.join(root, 'memory', 'state');
    const phase =
      '{"workflow_id":"wf-1","current_phase":"ARCHITECTURE","completed_phases":[{"phase":"REQUIREMENTS"}],"user_checkpoints":[]}\n';
    fs.writeFileSync(victim, phase);
    fs.mkdirSync(stateDir, { recursive: true });
    fs.symlinkSync(victim, path.join(stateDir, 'phase.json'));
    const run = emptyRun('dotagent', 'wf-1', root, stateDir);
    run.gates = [gate('REQUIREMENTS', path.join(stateDir, 'phase.json'), { kind: 'approval' })];
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'dotagent:wf-1', gate: 'REQUIREMENTS' }),
      {},
    );
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expect(fs.readFileSync(victim, 'utf8')).toBe(phase);
    expect(fs.readdirSync(stateDir)).toEqual(['phase.json']);
  });
});

describe('a harness request never writes through a symlink', () => {
  function harness(): Run {
    const stateDir = path.join(root, '.harness');
    fs.mkdirSync(stateDir, { recursive: true });
    return emptyRun('harness', 'shop', root, stateDir);
  }

  it('a dangling checkpoint-<name>.md link is refused as a link, nothing created outside', async () => {
    const run = harness();
    fs.symlinkSync(path.join(outside, 'made-by-tower'), path.join(run.stateDir!, 'checkpoint-review.md'));
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'review' }),
      {},
    );
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expectVictimIntact();
  });

  it('a hook log dir linked outside gets no log (a warning), the request itself stands', async () => {
    const run = harness();
    // The hook lives in the state dir (and in the project dir, where older layouts keep it).
    for (const dir of [run.stateDir!, root]) {
      writeFile(path.join(dir, 'hooks', 'on-checkpoint-fired.sh'), '#!/bin/sh\necho fired\n');
      fs.chmodSync(path.join(dir, 'hooks', 'on-checkpoint-fired.sh'), 0o755);
    }
    fs.mkdirSync(path.join(run.stateDir!, 'logs'));
    fs.symlinkSync(outside, path.join(run.stateDir!, 'logs', 'hooks'));
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'review' }),
      {},
    );
    expect(outcome.status).toBe('done');
    expect(outcome.details?.join('\n')).toContain('could not write its log');
    expectVictimIntact();
  });
});

describe('tina: the checkpoint signal and the escalation never go through a link', () => {
  let tmux: TmuxFixture;
  beforeEach(async () => {
    tmux = await startTmux();
  });
  afterEach(async () => {
    await tmux.kill();
  });

  it('a dangling checkpoint-needed link is refused before anything is typed', async () => {
    const fx = await tinaFixture(tmux, { home });
    const tw = actionWorld(tmux.name, home);
    tw.setSnapshot(snapshotOf(tinaRun(fx)));
    fs.symlinkSync(path.join(outside, 'signal'), fx.signal);
    const outcome = await runAction(tw.env, planAction(tw.env, { kind: 'checkpoint', run: 'tina:auth' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expectVictimIntact();
    expect(await tmux.client.capturePane(fx.panes.lead)).not.toContain('/checkpoint');
    fs.rmSync(fx.root, { recursive: true, force: true });
  });

  it('an escalation file linked outside is refused on timeout, the linked file untouched', async () => {
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    const tw = actionWorld(tmux.name, home);
    tw.setSnapshot(snapshotOf(tinaRun(fx)));
    fs.symlinkSync(victim, path.join(fx.stateDir, 'tower-escalation.json'));
    const outcome = await runAction(tw.env, planAction(tw.env, { kind: 'checkpoint', run: 'tina:auth' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is a symlink') });
    expectVictimIntact();
    fs.rmSync(fx.root, { recursive: true, force: true });
  });
});
