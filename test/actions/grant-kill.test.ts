/**
 * A tower killed with SIGKILL in the middle of a grant leaves its lock and temp files behind; the
 * next grant must take the dead owner's lock over at once and clean the temp files up.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withLock } from '../../src/kit/lock.js';
import { parseLockOwner } from '../../src/kit/lock.js';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

const HOLDER = fileURLToPath(new URL('../helpers/lock-holder.ts', import.meta.url));

let w: ActionWorld;
let home: string;
let root: string;
let stateDir: string;
beforeEach(() => {
  home = tempDir('tower-home-');
  root = tempDir('tower-project-');
  w = actionWorld(uniqueSocketName(), home);
  stateDir = path.join(root, '.sage', 'state');
  writeFile(path.join(stateDir, 'epic-1.json'), { version: '1.0', next_action: { type: 'hitl' } });
  const raised = new Date(Date.now() - 60_000);
  fs.utimesSync(path.join(stateDir, 'epic-1.json'), raised, raised);
  const run = emptyRun('sage', 'epic-1', root, stateDir);
  run.gates = [
    {
      id: 'hitl',
      kind: 'approval',
      state: 'pending',
      since: null,
      grantable: true,
      title: 'hitl',
      file: path.join(stateDir, 'epic-1.json'),
    },
  ];
  w.setSnapshot(snapshotOf(run));
});
afterEach(() => {
  for (const d of [home, root]) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts the holder, lets it run for `ms` after it is ready, then SIGKILLs it and waits for its end. */
async function killMidGrant(ms: number): Promise<void> {
  // tsx keeps a compile cache under TMPDIR: a dir of this test's own, removed with the others.
  const env = { ...process.env, TMPDIR: tempDir('tower-tsx-') };
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, stateDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => (b.toString().includes('ready') ? resolve() : undefined));
      child.once('exit', () => reject(new Error('the lock holder exited before it was ready')));
    });
    await new Promise((r) => setTimeout(r, ms));
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('a grant killed with SIGKILL', () => {
  it('blocks nothing: the next grant takes the lock over at once and leaves no temp file', async () => {
    let leftBehind = 0;
    for (let i = 0; i < 6; i++) {
      await killMidGrant(40 + Math.floor(Math.random() * 300));
      const before = fs.readdirSync(stateDir);
      // As the orchestrator does, the answer the killed writer left (if it got that far) is read and
      // deleted: the gate is open again, so only the lock and temp files can stand in the way.
      fs.rmSync(path.join(stateDir, '.resume-signal'), { force: true });
      if (before.some((n) => n.endsWith('.lock') || n.endsWith('.tmp'))) leftBehind++;
      // The holder's REVISE answer, unread, would answer the gate (SAGE's orchestrator reads any
      // answer newer than the gate): date it before the gate, so this grant may replace it.
      const answer = path.join(stateDir, '.resume-signal');
      if (fs.existsSync(answer)) fs.utimesSync(answer, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
      const started = Date.now();
      const outcome = await runAction(
        w.env,
        planAction(w.env, { kind: 'grant', run: 'sage:epic-1', gate: 'hitl' }),
        {},
      );
      expect(outcome, `round ${i}: left ${before.join(' ')}`).toMatchObject({ status: 'done' });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(fs.readFileSync(path.join(stateDir, '.resume-signal'), 'utf8')).toBe('STATUS: APPROVED\n');
      expect(fs.readdirSync(stateDir).sort()).toEqual(['.resume-signal', 'epic-1.json']);
      // The next round's holder answers REVISE again.
    }
    // The kills really landed inside the lock or mid-write at least once.
    expect(leftBehind).toBeGreaterThan(0);
  });

  it('a lock held by a live process is respected; its file names the owner', async () => {
    const lock = path.join(stateDir, '.tower-grant.lock');
    const inner = await withLock(stateDir, lock, async () => {
      const owner = parseLockOwner(fs.readFileSync(lock, 'utf8'));
      expect(owner).toMatchObject({ pid: process.pid });
      return withLock(stateDir, lock, async () => 'second');
    });
    expect(inner).toEqual({ value: null });
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('an older lock line of a live process elsewhere is kept until it is 60 s old', async () => {
    const lock = path.join(stateDir, '.tower-grant.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: 1, host: 'another-box', at: new Date().toISOString() }));
    expect(await withLock(stateDir, lock, async () => 'x')).toBeNull();
    const old = new Date(Date.now() - 61_000);
    fs.utimesSync(lock, old, old);
    expect(await withLock(stateDir, lock, async () => 'x')).toEqual({ value: 'x' });
  });
});
