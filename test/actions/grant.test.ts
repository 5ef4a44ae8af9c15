/** Granting gates of the harness, SAGE and dotagent on real files: one write per grant, refusals otherwise. */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatLike } from '../../src/systems/grant-kit.js';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Gate, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, listing, snapshotOf } from './kit.js';

function gate(id: string, file: string | null, over: Partial<Gate> = {}): Gate {
  return { id, kind: 'checkpoint', state: 'pending', since: null, grantable: true, title: id, file, ...over };
}

function harnessRun(root: string): Run {
  const stateDir = path.join(root, '.harness');
  writeFile(
    path.join(stateDir, 'checkpoint-plan-approval.md'),
    '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\n',
  );
  const run = emptyRun('harness', 'shop', root, stateDir);
  run.gates = [
    gate('plan-approval', path.join(stateDir, 'checkpoint-plan-approval.md')),
    gate('escalation', null, { kind: 'escalation', grantable: false, title: 'Escalated: stuck on tests' }),
  ];
  return run;
}

function sageRun(root: string): Run {
  const stateDir = path.join(root, '.sage', 'state');
  writeFile(path.join(stateDir, 'epic-1.json'), {
    version: '1.0',
    next_action: { type: 'hitl', description: 'Review the plan' },
  });
  // The gate was raised a minute ago (an answer must be newer than that to count).
  const raised = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(stateDir, 'epic-1.json'), raised, raised);
  const run = emptyRun('sage', 'epic-1', root, stateDir);
  run.gates = [gate('hitl', path.join(stateDir, 'epic-1.json'), { kind: 'approval' })];
  return run;
}

const PHASE_JSON =
  '{"workflow_id":"wf-1","started_at":"2026-01-16T09:00:00Z","current_phase":"ARCHITECTURE","phase_status":"in_progress",' +
  '"completed_phases":[{"phase":"REQUIREMENTS","completed_at":"2026-01-16T09:20:00Z","output":"memory/reports/demand.json"}],' +
  '"user_checkpoints":[],"interruption_safe":true,"x_unknown":{"kept":[1,2]}}\n';

function dotagentRun(root: string, phaseJson = PHASE_JSON): Run {
  const stateDir = path.join(root, 'memory', 'state');
  writeFile(path.join(stateDir, 'phase.json'), phaseJson);
  const run = emptyRun('dotagent', 'wf-1', root, stateDir);
  run.gates = [gate('REQUIREMENTS', path.join(stateDir, 'phase.json'), { kind: 'approval' })];
  return run;
}

let w: ActionWorld;
let root: string;
beforeEach(() => {
  const home = tempDir('tower-home-');
  w = actionWorld(uniqueSocketName(), home);
  root = tempDir('tower-project-');
});

describe('grant (harness)', () => {
  it('creates the .granted sentinel once; a second grant is refused and writes nothing', async () => {
    const run = harnessRun(root);
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    const granted = path.join(root, '.harness', 'checkpoint-plan-approval.md.granted');
    expect(plan.effects).toEqual([
      { kind: 'create', text: expect.stringMatching(new RegExp(`^create ${granted} "granted at \\d{4}-.*Z\\\\n"$`)) },
    ]);
    const first = await runAction(w.env, plan, {});
    expect(first).toMatchObject({
      status: 'done',
      message: `granted plan-approval of harness:shop: created ${granted}`,
    });
    const content = fs.readFileSync(granted, 'utf8');
    expect(content).toMatch(/^granted at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n$/);

    const again = await runAction(w.env, plan, {});
    expect(again.status).toBe('refused');
    expect(again.message).toContain('already granted');
    expect(fs.readFileSync(granted, 'utf8')).toBe(content);
    // Only the two files, no temp files left behind.
    expect(fs.readdirSync(path.join(root, '.harness')).sort()).toEqual([
      'checkpoint-plan-approval.md',
      'checkpoint-plan-approval.md.granted',
    ]);
    expect(w.audit().map((a) => a.outcome)).toEqual(['done', 'refused']);

    run.gates[0] = { ...run.gates[0]!, state: 'granted', grantable: false };
    expect(planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }).refusal).toBe(
      'gate "plan-approval" of harness:shop is already granted',
    );
  });

  it('two grants at once: exactly one write, one refusal', async () => {
    w.setSnapshot(snapshotOf(harnessRun(root)));
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    const outcomes = await Promise.all([runAction(w.env, plan, {}), runAction(w.env, plan, {})]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['done', 'refused']);
  });

  it('refuses a gate that is not pending any more, unknown gates, escalations, bad names', async () => {
    const run = harnessRun(root);
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    fs.rmSync(path.join(root, '.harness', 'checkpoint-plan-approval.md'));
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is not pending') });
    expect(fs.existsSync(path.join(root, '.harness', 'checkpoint-plan-approval.md.granted'))).toBe(false);

    expect(planAction(w.env, { kind: 'grant', run: 'harness', gate: 'nope' }).refusal).toBe(
      'harness:shop has no gate "nope" (gates: plan-approval (pending), escalation (pending))',
    );
    expect(planAction(w.env, { kind: 'grant', run: 'harness', gate: 'escalation' }).refusal).toContain(
      'is an escalation',
    );
    run.gates.push(gate('../evil', null));
    expect(planAction(w.env, { kind: 'grant', run: 'harness', gate: '../evil' }).refusal).toContain(
      'is not a checkpoint name',
    );
  });

  it('refuses a state dir that is a symlink out of the project', async () => {
    const outside = tempDir('tower-outside-');
    fs.symlinkSync(outside, path.join(root, '.harness'));
    writeFile(path.join(outside, 'checkpoint-plan-approval.md'), '# x\n');
    const run = emptyRun('harness', 'shop', root, path.join(root, '.harness'));
    run.gates = [gate('plan-approval', path.join(root, '.harness', 'checkpoint-plan-approval.md'))];
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    expect(plan.refusal).toContain('outside the project');
    await runAction(w.env, plan, {});
    expect(fs.readdirSync(outside)).toEqual(['checkpoint-plan-approval.md']);
  });

  it('refuses to write when the state dir is swapped for a link between the plan and the run', async () => {
    const run = harnessRun(root);
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    expect(plan.refusal).toBeNull();
    // While the confirm dialog is open: .harness moves away and a link to a directory elsewhere takes its place.
    const outside = tempDir('tower-outside-');
    writeFile(path.join(outside, 'checkpoint-plan-approval.md'), '# x\n');
    fs.renameSync(path.join(root, '.harness'), path.join(root, '.harness-moved'));
    fs.symlinkSync(outside, path.join(root, '.harness'));
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).not.toBe('done');
    expect(outcome.message).toMatch(/changed since the action was planned \(it is now a symlink\)/);
    expect(fs.readdirSync(outside)).toEqual(['checkpoint-plan-approval.md']);
    expect(fs.readdirSync(path.join(root, '.harness-moved'))).toEqual(['checkpoint-plan-approval.md']);
  });

  it('is refused in read-only mode', () => {
    w.setSnapshot(snapshotOf(harnessRun(root)));
    w.ctx.readonly = true;
    expect(planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }).refusal).toBe(
      'read-only mode',
    );
  });
});

describe('grant (SAGE)', () => {
  it('writes STATUS: APPROVED atomically, once; the lock is gone after', async () => {
    w.setSnapshot(snapshotOf(sageRun(root)));
    const plan = planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' });
    expect(plan.refusal).toBeNull();
    const [a, b] = await Promise.all([runAction(w.env, plan, {}), runAction(w.env, plan, {})]);
    expect([a?.status, b?.status].sort()).toEqual(['done', 'refused']);
    const stateDir = path.join(root, '.sage', 'state');
    expect(fs.readFileSync(path.join(stateDir, '.resume-signal'), 'utf8')).toBe('STATUS: APPROVED\n');
    expect(fs.readdirSync(stateDir).sort()).toEqual(['.resume-signal', 'epic-1.json']);
    const again = await runAction(w.env, plan, {});
    expect(again).toMatchObject({ status: 'refused', message: expect.stringContaining('already answered') });
  });

  it('does not take an APPROVED older than the gate for a grant', async () => {
    w.setSnapshot(snapshotOf(sageRun(root)));
    const signal = path.join(root, '.sage', 'state', '.resume-signal');
    fs.writeFileSync(signal, 'STATUS: APPROVED\n');
    const older = new Date(Date.now() - 120_000);
    fs.utimesSync(signal, older, older);
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' }), {});
    expect(outcome.status).toBe('done');
    expect(fs.statSync(signal).mtimeMs).toBeGreaterThan(Date.now() - 10_000);
  });

  it('replaces an answer older than the gate, and refuses while another grant holds the lock', async () => {
    const run = sageRun(root);
    const stateDir = path.join(root, '.sage', 'state');
    fs.writeFileSync(path.join(stateDir, '.resume-signal'), 'STATUS: REVISE\n');
    const older = new Date(Date.now() - 120_000);
    fs.utimesSync(path.join(stateDir, '.resume-signal'), older, older);
    w.setSnapshot(snapshotOf(run));
    fs.writeFileSync(path.join(stateDir, '.tower-grant.lock'), '999 now\n');
    const plan = planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' });
    const busy = await runAction(w.env, plan, {});
    expect(busy).toMatchObject({ status: 'refused', message: expect.stringContaining('in progress') });
    expect(fs.readFileSync(path.join(stateDir, '.resume-signal'), 'utf8')).toBe('STATUS: REVISE\n');
    fs.rmSync(path.join(stateDir, '.tower-grant.lock'));
    expect((await runAction(w.env, plan, {})).status).toBe('done');
    expect(fs.readFileSync(path.join(stateDir, '.resume-signal'), 'utf8')).toBe('STATUS: APPROVED\n');
  });

  it('refuses an unread answer newer than the gate, whatever it says, and leaves it as it is', async () => {
    w.setSnapshot(snapshotOf(sageRun(root)));
    const signal = path.join(root, '.sage', 'state', '.resume-signal');
    fs.writeFileSync(signal, '{"status": "REVISE", "timestamp": "2026-05-08T12:30:00+00:00"}\n');
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' }), {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('already answered') });
    expect(fs.readFileSync(signal, 'utf8')).toContain('REVISE');
  });

  it('refuses, under the lock, when the orchestrator consumed an answer after the plan was made', async () => {
    // Planned while pending; meanwhile the orchestrator read an answer, deleted it and logged it
    // (kwg/sage-method bin/orchestrate-v2.sh wait_for_resume_signal). Writing now would answer the next gate.
    w.setSnapshot(snapshotOf(sageRun(root)));
    const plan = planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' });
    expect(plan.refusal).toBeNull();
    const stamp = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    writeFile(
      path.join(root, '.sage', 'logs', 'orchestrator-v2.log'),
      `[${stamp}] [INFO] Resume signal detected!\n[${stamp}] [INFO] Resume status: APPROVED\n`,
    );
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('read by the orchestrator') });
    expect(fs.existsSync(path.join(root, '.sage', 'state', '.resume-signal'))).toBe(false);
  });
});

describe('grant (dotagent)', () => {
  it('appends {phase, approved_at} keeping every other field, layout and unknown keys; twice is refused', async () => {
    w.setSnapshot(snapshotOf(dotagentRun(root)));
    const file = path.join(root, 'memory', 'state', 'phase.json');
    const plan = planAction(w.env, { kind: 'grant', run: 'dotagent:wf-1', gate: 'REQUIREMENTS' });
    expect(plan.effects.map((e) => e.kind)).toEqual(['create', 'append', 'delete']);
    expect((await runAction(w.env, plan, {})).status).toBe('done');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\n')).toHaveLength(2); // still one compact line
    const after = JSON.parse(text) as Record<string, unknown>;
    const before = JSON.parse(PHASE_JSON) as Record<string, unknown>;
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect({ ...after, user_checkpoints: [] }).toEqual(before);
    expect(after.user_checkpoints).toEqual([
      { phase: 'REQUIREMENTS', approved_at: expect.stringMatching(/^\d{4}-.*Z$/) },
    ]);

    const again = await runAction(w.env, plan, {});
    expect(again).toMatchObject({ status: 'refused', message: expect.stringContaining('already approved') });
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['phase.json']);
  });

  it('leaves a file whose user_checkpoints is not a list alone', async () => {
    const broken = PHASE_JSON.replace('"user_checkpoints":[]', '"user_checkpoints":"yes"');
    w.setSnapshot(snapshotOf(dotagentRun(root, broken)));
    const before = listing(root);
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'dotagent:wf-1', gate: 'REQUIREMENTS' }),
      {},
    );
    expect(outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('is not a list') });
    expect(listing(root)).toEqual(before);
  });

  it('keeps an indented file indented', () => {
    const pretty = '{\n    "a": 1,\n    "user_checkpoints": []\n}\n';
    expect(formatLike(pretty, { a: 1, user_checkpoints: [{ phase: 'X' }] })).toBe(
      '{\n    "a": 1,\n    "user_checkpoints": [\n        {\n            "phase": "X"\n        }\n    ]\n}\n',
    );
  });
});

describe('grant refusals that are not the gate', () => {
  it('refuses the context gate (its action is the checkpoint cycle) and runs that are not found', () => {
    const run = emptyRun('tina', 'auth', root, path.join(root, '.claude', 'tina'));
    run.gates = [gate('context', null, { kind: 'context', grantable: false })];
    w.setSnapshot(snapshotOf(run));
    expect(planAction(w.env, { kind: 'grant', run: 'tina:auth', gate: 'context' }).refusal).toContain(
      'tower checkpoint tina:auth',
    );
    expect(planAction(w.env, { kind: 'grant', run: 'nothing', gate: 'x' }).refusal).toContain(
      'no run matches "nothing"',
    );
  });
});
