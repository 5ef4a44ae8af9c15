/** Requesting a harness checkpoint: the request file, the hook with its env and log, and the refusals. */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Run } from '../../src/model.js';
import { emptyRun } from '../../src/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, listing, snapshotOf } from './kit.js';

let w: ActionWorld;
let root: string;
let stateDir: string;
let run: Run;
beforeEach(() => {
  w = actionWorld(uniqueSocketName(), tempDir('tower-home-'));
  root = tempDir('tower-project-');
  stateDir = path.join(root, '.papercusp');
  fs.mkdirSync(stateDir);
  run = emptyRun('harness', 'shop', root, stateDir);
  w.setSnapshot(snapshotOf(run));
});

function hook(body: string): string {
  const file = path.join(root, 'hooks', 'on-checkpoint-fired.sh');
  writeFile(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

function hookLogs(): string[] {
  const dir = path.join(stateDir, 'logs', 'hooks');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
}

describe('request', () => {
  it('writes the manual request and runs the hook with its env, logging its output', async () => {
    hook('echo "name=$CHECKPOINT_NAME trigger=$TRIGGER project=$PROJECT_DIR state=$STATE_DIR"');
    const plan = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'pre-done', message: 'Hold before DONE, I want to read the diff.' });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.kind)).toEqual(['create', 'run']);
    expect(plan.effects[1]?.text).toContain('CHECKPOINT_NAME=pre-done TRIGGER=manual');

    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    const body = fs.readFileSync(path.join(stateDir, 'checkpoint-pre-done.md'), 'utf8');
    expect(body).toMatch(
      /^# Checkpoint: pre-done \(manual request\)\n\nRequested at: \d{4}-\S+Z\nBy: \S+@\S+ via tower\n\nHold before DONE, I want to read the diff\.\n\n## How to grant\n- tower grant harness:shop pre-done\n$/,
    );
    const logs = hookLogs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain(`name=pre-done trigger=manual project=${root} state=${stateDir}`);
    expect(outcome.details?.some((d) => d.startsWith('hook on-checkpoint-fired.sh exited 0'))).toBe(true);
    expect(w.audit()[0]).toMatchObject({ action: 'request', target: 'pre-done', outcome: 'done' });
  });

  it('treats a failing hook as a warning, not a failure', async () => {
    hook('echo broken >&2; exit 3');
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'db-migration' }), {});
    expect(outcome.status).toBe('done');
    expect(outcome.message).toContain('the hook failed');
    expect(outcome.details?.find((d) => d.startsWith('warning:'))).toContain('exited 3');
    expect(hookLogs()[0]).toContain('broken');
    expect(fs.existsSync(path.join(stateDir, 'checkpoint-db-migration.md'))).toBe(true);
  });

  it('runs no hook that is not executable', () => {
    const file = hook('exit 0');
    fs.chmodSync(file, 0o644);
    const plan = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'x' });
    expect(plan.effects.map((e) => e.kind)).toEqual(['create']);
  });

  it('refuses a pending name, a granted one not yet consumed, bad names and other systems, writing nothing', async () => {
    fs.writeFileSync(path.join(stateDir, 'checkpoint-plan-approval.md'), '# pending\n');
    fs.writeFileSync(path.join(stateDir, 'checkpoint-old.md'), '# old\n');
    fs.writeFileSync(path.join(stateDir, 'checkpoint-old.md.granted'), 'granted at 2026-01-01T00:00:00.000Z\n');
    const before = listing(root);
    const pending = await runAction(w.env, planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'plan-approval' }), {});
    expect(pending).toMatchObject({ status: 'refused', message: expect.stringContaining('already pending') });
    expect(planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'old' }).refusal).toContain('not consumed it yet');
    for (const bad of ['../escape', 'a b', '', 'x/y']) {
      expect(planAction(w.env, { kind: 'request', run: 'harness:shop', name: bad }).refusal).toContain('bad checkpoint name');
    }
    w.setSnapshot(snapshotOf(emptyRun('sage', 'epic', root, path.join(root, '.sage', 'state'))));
    expect(planAction(w.env, { kind: 'request', run: 'sage:epic', name: 'x' }).refusal).toContain('requested on harness runs');
    expect(listing(root)).toEqual(before);
  });

  it('refuses when the request appeared between the plan and the run (exclusive create)', async () => {
    const plan = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'race' });
    fs.writeFileSync(path.join(stateDir, 'checkpoint-race.md'), '# someone else\n');
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('refused');
    expect(fs.readFileSync(path.join(stateDir, 'checkpoint-race.md'), 'utf8')).toBe('# someone else\n');
  });
});
