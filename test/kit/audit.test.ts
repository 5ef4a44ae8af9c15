/**
 * An action and its audit lines when tower dies in the middle (SIGKILL): the `begun` line was
 * written before it acted, the next start marks it `interrupted` (once, never `done`) and nothing
 * is left half written; and an audit log that can't be written refuses the action before it acts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAction, planAction } from '../../src/actions/index.js';
import { markInterrupted } from '../../src/kit/audit.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { actionWorld, readAuditLines, snapshotOf } from '../actions/kit.js';

const DRIVER = fileURLToPath(new URL('../fixtures/agents/attach-driver.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

let inner: TmuxFixture;
let outer: TmuxFixture;
let home: string;
beforeEach(async () => {
  [inner, outer] = await Promise.all([startTmux(), startTmux()]);
  home = tempDir('tower-interrupted-');
});
afterEach(async () => {
  await Promise.all([inner.kill(), outer.kill()]);
});

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const env = (): NodeJS.ProcessEnv => ({ ...process.env, XDG_STATE_HOME: path.join(home, 'state') });

describe('an action whose tower is killed', () => {
  it('left a begun line; the next start marks it interrupted once, never done, and no file half written', async () => {
    const target = await inner.newSession('target', home, 'sleep 100000');
    const out = path.join(home, 'out.log');
    // attach hands the terminal to tmux and waits for the detach: an action that stays in the middle.
    const driver = `env -u TMUX -u TMUX_PANE XDG_STATE_HOME=${q(path.join(home, 'state'))} XDG_CONFIG_HOME=${q(path.join(home, 'config'))} node --import tsx ${q(DRIVER)} ${inner.name} ${target} ${q(out)}`;
    await outer.client.run(['new-session', '-d', '-s', 'term', '-c', REPO, '-x', '100', '-y', '30', driver]);
    const begun = await waitFor(() => readAuditLines(home).find((l) => l.outcome === 'begun'), 15_000, {
      what: 'the begun line',
    });
    expect(begun).toMatchObject({ action: 'attach', target, outcome: 'begun' });
    await waitFor(async () => (await inner.client.listClients().catch(() => [])).length > 0, 15_000, {
      what: 'the attach to be under way',
    });
    process.kill(begun.pid as number, 'SIGKILL');
    await waitFor(
      () => {
        try {
          process.kill(begun.pid as number, 0);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
      { what: 'the killed tower to be gone' },
    );

    const marked = await markInterrupted(env());
    expect(marked.map((m) => [m.action, m.target, m.outcome, m.id])).toEqual([
      ['attach', target, 'interrupted', begun.id],
    ]);
    expect(marked[0]?.message).toContain('may be half done');
    // Said once: a second start finds nothing left to mark.
    expect(await markInterrupted(env())).toEqual([]);
    const lines = readAuditLines(home);
    expect(lines.map((l) => l.outcome)).toEqual(['begun', 'interrupted']);
    // Every line whole, and nothing else in the state folder (no temp file left behind).
    expect(fs.readFileSync(path.join(home, 'state', 'tower', 'audit.jsonl'), 'utf8').endsWith('\n')).toBe(true);
    expect(fs.readdirSync(path.join(home, 'state', 'tower'))).toEqual(['audit.jsonl']);
  }, 60_000);

  it('a begun line of a tower that still runs is left alone', async () => {
    const w = actionWorld(uniqueSocketName(), home);
    fs.mkdirSync(path.join(home, 'state', 'tower'), { recursive: true });
    const line = { time: new Date().toISOString(), user: 'u', host: (await import('node:os')).hostname() };
    fs.writeFileSync(
      path.join(home, 'state', 'tower', 'audit.jsonl'),
      `${JSON.stringify({ ...line, action: 'grant', run: 'r', target: null, outcome: 'begun', duration: 0, message: 'm', id: 'ab12', pid: process.ppid })}\n`,
    );
    expect(await markInterrupted(w.ctx.env)).toEqual([]);
  });
});

describe('an audit log that cannot be written', () => {
  it('refuses the action before it acts: the gate stays ungranted', async () => {
    // The state folder's `tower` is a file: the log's folder can't be made, as on a full or read-only disk.
    fs.mkdirSync(path.join(home, 'state'), { recursive: true });
    fs.writeFileSync(path.join(home, 'state', 'tower'), 'not a folder');
    const w = actionWorld(uniqueSocketName(), home);
    const root = tempDir('tower-interrupted-run-');
    const stateDir = path.join(root, '.harness');
    const gateFile = path.join(stateDir, 'checkpoint-ship.md');
    writeFile(gateFile, '# Checkpoint: ship (manual request)\n');
    const run = emptyRun('harness', 'shop', root, stateDir);
    run.gates = [
      { id: 'ship', kind: 'checkpoint', state: 'pending', since: null, grantable: true, title: 'ship', file: gateFile },
    ];
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'grant', run: run.id, gate: 'ship' });
    expect(plan.refusal).toBeNull();
    const outcome = await runAction(w.env, plan);
    expect(outcome.status).toBe('refused');
    expect(outcome.message).toMatch(/could not write the audit log .*; nothing was done/);
    expect(fs.existsSync(`${gateFile}.granted`)).toBe(false);
    expect(fs.readdirSync(stateDir)).toEqual(['checkpoint-ship.md']);
  });
});
