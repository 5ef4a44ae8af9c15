/**
 * Requesting a harness checkpoint: the request file, the hook with its env and log, and the refusals.
 * The hook is where the harness keeps it: `<stateDir>/hooks/on-checkpoint-fired.sh`, run with cwd the
 * project, its output in `<stateDir>/logs/hooks/<epoch-seconds>-on-checkpoint-fired.log`
 * (Papercusp/papercusp-app libs/papercusp/packages/orchestrator/src/hooks.ts, runHook).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { dialogText } from '../../src/ui/components/dialog-lines.js';
import { defaultBindings } from '../../src/keys/keymap.js';
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

function hook(body: string, dir = stateDir): string {
  const file = path.join(dir, 'hooks', 'on-checkpoint-fired.sh');
  writeFile(file, `#!/bin/sh\n${body}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

function hookLogNames(dir = stateDir): string[] {
  const logs = path.join(dir, 'logs', 'hooks');
  return fs.existsSync(logs) ? fs.readdirSync(logs) : [];
}

function hookLogs(dir = stateDir): string[] {
  return hookLogNames(dir).map((f) => fs.readFileSync(path.join(dir, 'logs', 'hooks', f), 'utf8'));
}

describe('request', () => {
  it('writes the manual request and runs the state dir hook with its env, logging its output', async () => {
    hook(
      'echo "name=$CHECKPOINT_NAME trigger=$TRIGGER project=$PROJECT_DIR state=$STATE_DIR slug=$HARNESS_SLUG cwd=$(pwd)"; echo oops >&2',
    );
    const plan = planAction(w.env, {
      kind: 'request',
      run: 'harness:shop',
      name: 'pre-done',
      message: 'Hold before DONE, I want to read the diff.',
    });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.kind)).toEqual(['create', 'run']);
    expect(plan.effects[1]?.text).toContain(`run ${path.join(stateDir, 'hooks', 'on-checkpoint-fired.sh')} in ${root}`);
    expect(plan.effects[1]?.text).toContain(
      `CHECKPOINT_NAME=pre-done TRIGGER=manual PROJECT_DIR=${root} STATE_DIR=${stateDir} HARNESS_SLUG=${path.basename(root)}`,
    );
    expect(plan.effects[1]?.text).toContain(
      `output to ${path.join(stateDir, 'logs', 'hooks')}/<epoch-seconds>-on-checkpoint-fired.log`,
    );

    const before = Math.floor(Date.now() / 1000);
    const outcome = await runAction(w.env, plan, {});
    const after = Math.floor(Date.now() / 1000);
    expect(outcome.status).toBe('done');
    const body = fs.readFileSync(path.join(stateDir, 'checkpoint-pre-done.md'), 'utf8');
    expect(body).toMatch(
      /^# Checkpoint: pre-done \(manual request\)\n\nRequested at: \d{4}-\S+Z\nBy: \S+@\S+ via tower\n\nHold before DONE, I want to read the diff\.\n\n## How to grant\n- tower grant harness:shop pre-done\n$/,
    );
    const names = hookLogNames();
    expect(names).toHaveLength(1);
    const m = /^(\d+)-on-checkpoint-fired\.log$/.exec(names[0] ?? '');
    expect(m, names[0]).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(before);
    expect(Number(m?.[1])).toBeLessThanOrEqual(after);
    const log = hookLogs()[0] ?? '';
    expect(log).toContain(
      `name=pre-done trigger=manual project=${root} state=${stateDir} slug=${path.basename(root)} cwd=${fs.realpathSync(root)}`,
    );
    expect(log).toMatch(/oops\n$/);
    expect(outcome.details?.some((d) => d.startsWith('hook on-checkpoint-fired.sh exited 0'))).toBe(true);
    // A manual request is not an automatic trigger: no fired marker.
    expect(fs.existsSync(path.join(stateDir, '.checkpoint-pre-done.fired'))).toBe(false);
    expect(w.audit()[0]).toMatchObject({ action: 'request', target: 'pre-done', outcome: 'done' });
  });

  // Papercusp hooks always get OPERATOR_BASE and WORKSPACE_ID (Papercusp/papercusp-app 96a6ba7,
  // libs/papercusp/packages/orchestrator/src/hooks.ts runHook: OPERATOR_BASE defaults to
  // http://localhost:3070; WORKSPACE_ID from orchestrator/src/workspace.ts activeWorkspaceId).
  it('gives the hook OPERATOR_BASE and WORKSPACE_ID as the harness does, the defaults when tower names none', async () => {
    hook('echo "base=${OPERATOR_BASE-unset} ws=${WORKSPACE_ID-unset}"');
    const workspaces = tempDir('tower-workspaces-');
    w.ctx.env = { ...w.ctx.env, PAPERCUSP_WORKSPACES_ROOT: workspaces };
    delete w.ctx.env.OPERATOR_BASE;
    delete w.ctx.env.PAPERCUSP_OPERATOR_BASE;
    delete w.ctx.env.PAPERCUSP_WORKSPACE_ID;
    const plain = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'one' });
    expect(plain.effects[1]?.text).toContain('OPERATOR_BASE=http://localhost:3070');
    expect(plain.effects[1]?.text).toContain('WORKSPACE_ID=default');
    await runAction(w.env, plain, {});
    expect(hookLogs().join('')).toContain('base=http://localhost:3070 ws=default');

    fs.writeFileSync(
      path.join(workspaces, 'registry.json'),
      JSON.stringify({ current: 'ws-7', workspaces: [{ id: 'ws-7' }] }),
    );
    const named = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'two' });
    expect(named.effects[1]?.text).toContain('WORKSPACE_ID=ws-7');
    await runAction(w.env, named, {});
    expect(hookLogs().join('')).toContain('ws=ws-7');
  });

  it('finds the hook in a .harness state dir too, and never in the project root', async () => {
    const harnessRoot = tempDir('tower-project-');
    const harnessState = path.join(harnessRoot, '.harness');
    fs.mkdirSync(harnessState);
    w.setSnapshot(snapshotOf(emptyRun('harness', 'docs', harnessRoot, harnessState)));
    // A hooks folder in the project itself is not the harness's: it must not run.
    const stray = path.join(harnessRoot, 'hooks', 'on-checkpoint-fired.sh');
    writeFile(stray, `#!/bin/sh\ntouch ${path.join(harnessRoot, 'stray-ran')}\n`);
    fs.chmodSync(stray, 0o755);
    expect(planAction(w.env, { kind: 'request', run: 'harness:docs', name: 'n' }).effects.map((e) => e.kind)).toEqual([
      'create',
    ]);

    hook('echo ran-in-harness', harnessState);
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'request', run: 'harness:docs', name: 'm' }), {});
    expect(outcome.status).toBe('done');
    expect(hookLogs(harnessState).join('')).toContain('ran-in-harness');
    expect(fs.existsSync(path.join(harnessRoot, 'stray-ran'))).toBe(false);
  });

  it('treats a failing hook as a warning, not a failure', async () => {
    hook('echo broken >&2; exit 3');
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'db-migration' }),
      {},
    );
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
    const pending = await runAction(
      w.env,
      planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'plan-approval' }),
      {},
    );
    expect(pending).toMatchObject({ status: 'refused', message: expect.stringContaining('already pending') });
    expect(planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'old' }).refusal).toContain(
      'not consumed it yet',
    );
    for (const bad of ['../escape', 'a b', '', 'x/y']) {
      expect(planAction(w.env, { kind: 'request', run: 'harness:shop', name: bad }).refusal).toContain(
        'bad checkpoint name',
      );
    }
    w.setSnapshot(snapshotOf(emptyRun('sage', 'epic', root, path.join(root, '.sage', 'state'))));
    expect(planAction(w.env, { kind: 'request', run: 'sage:epic', name: 'x' }).refusal).toContain(
      'requested on harness runs',
    );
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

describe('the confirm dialog of a request', () => {
  it('shows the hook step with its env before anything runs', () => {
    const file = hook('exit 0');
    const plan = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'pre-done' });
    const text = dialogText({ kind: 'confirm', plan, scroll: 0 }, 400, defaultBindings(), false)
      .body.map((line) => line.map((seg) => seg.text).join(''))
      .join('\n');
    expect(text).toContain(`create ${path.join(stateDir, 'checkpoint-pre-done.md')}`);
    expect(text).toContain(`run ${file} in ${root} with CHECKPOINT_NAME=pre-done TRIGGER=manual`);
    expect(text).toContain(`HARNESS_SLUG=${path.basename(root)}`);
    expect(hookLogNames()).toEqual([]);
  });
});
