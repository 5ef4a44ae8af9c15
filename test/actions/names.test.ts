/** Checkpoint names that are not file names: `.`, `..`, and names too long for a file are refused with a clear message. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointNameRefusal } from '../../src/kit/safety.js';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Gate } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, listing, snapshotOf } from './kit.js';

let w: ActionWorld;
let home: string;
let root: string;
let stateDir: string;
beforeEach(() => {
  home = tempDir('tower-home-');
  root = tempDir('tower-project-');
  stateDir = path.join(root, '.harness');
  fs.mkdirSync(stateDir);
  w = actionWorld(uniqueSocketName(), home);
});
afterEach(() => {
  for (const d of [home, root]) fs.rmSync(d, { recursive: true, force: true });
});

function pending(id: string): Gate {
  return { id, kind: 'checkpoint', state: 'pending', since: null, grantable: true, title: id, file: null };
}

describe('checkpoint names', () => {
  it('. and .. are not names, for a request or a grant', async () => {
    const run = emptyRun('harness', 'shop', root, stateDir);
    run.gates = [pending('.'), pending('..')];
    w.setSnapshot(snapshotOf(run));
    const before = listing(root);
    for (const name of ['.', '..']) {
      expect(planAction(w.env, { kind: 'request', run: 'harness:shop', name }).refusal).toBe(
        `"${name}" is not a checkpoint name`,
      );
      expect(planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: name }).refusal).toBe(
        `"${name}" is not a checkpoint name`,
      );
    }
    expect(listing(root)).toEqual(before);
  });

  it('an over-long name is refused as too long, never reaching ENAMETOOLONG', async () => {
    const long = 'a'.repeat(250);
    const run = emptyRun('harness', 'shop', root, stateDir);
    run.gates = [pending(long)];
    w.setSnapshot(snapshotOf(run));
    const req = planAction(w.env, { kind: 'request', run: 'harness:shop', name: long });
    expect(req.refusal).toMatch(/^checkpoint name is too long: 250 bytes \(at most \d+\)$/);
    const outcome = await runAction(w.env, req, {});
    expect(outcome.status).toBe('refused');
    expect(outcome.message).not.toContain('ENAMETOOLONG');
    expect(planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: long }).refusal).toContain('too long');
  });

  it('the longest name allowed really works as a file name (with its temp file)', async () => {
    const max = Number(/at most (\d+)/.exec(checkpointNameRefusal('a'.repeat(300)) ?? '')?.[1]);
    expect(max).toBeGreaterThan(100);
    expect(checkpointNameRefusal('a'.repeat(max))).toBeNull();
    const name = 'b'.repeat(max);
    w.setSnapshot(snapshotOf(emptyRun('harness', 'shop', root, stateDir)));
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'request', run: 'harness:shop', name }), {});
    expect(outcome.status).toBe('done');
    const run = emptyRun('harness', 'shop', root, stateDir);
    run.gates = [{ ...pending(name), file: path.join(stateDir, `checkpoint-${name}.md`) }];
    w.setSnapshot(snapshotOf(run));
    const grant = await runAction(w.env, planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: name }), {});
    expect(grant.status).toBe('done');
  });
});
