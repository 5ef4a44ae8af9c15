/**
 * Attach, in real terminals: an outer tmux server provides the terminal (a pane) in which a tmux
 * client of the inner server runs, so there is a real client to switch and a real attach to hand over to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachToPane } from '../../src/actions/index.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { actionWorld, readAudit, snapshotOf } from './kit.js';

const DRIVER = fileURLToPath(new URL('../fixtures/agents/attach-driver.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

let inner: TmuxFixture;
let outer: TmuxFixture;
let home: string;
beforeEach(async () => {
  [inner, outer] = await Promise.all([startTmux(), startTmux()]);
  home = tempDir('tower-attach-');
});
afterEach(async () => {
  await Promise.all([inner.kill(), outer.kill()]);
});

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line that runs the driver with a private config and audit log. */
function driver(paneId: string, out: string): string {
  return `env XDG_STATE_HOME=${q(path.join(home, 'state'))} XDG_CONFIG_HOME=${q(path.join(home, 'config'))} node --import tsx ${q(DRIVER)} ${inner.name} ${paneId} ${q(out)}`;
}

async function clientPanes(): Promise<string[]> {
  return (await inner.client.listClients().catch(() => [])).map((c) => c.paneId);
}

/**
 * The driver's whole lines so far. Its file exists, empty, a moment before its first line is
 * written, and a line may be caught half written: neither counts as a line.
 */
function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(0, -1) : [];
}

describe('attach', () => {
  it('outside tmux: hands the terminal to tmux attach-session and comes back when the operator detaches', async () => {
    const target = await inner.newSession('target', home, 'sleep 100000');
    const out = path.join(home, 'out.log');
    // The "terminal" is a pane of the outer server; TMUX is unset there, as in a plain ssh session.
    await outer.client.run([
      'new-session',
      '-d',
      '-s',
      'term',
      '-c',
      REPO,
      '-x',
      '100',
      '-y',
      '30',
      `env -u TMUX -u TMUX_PANE ${driver(target, out)}`,
    ]);
    await waitFor(async () => (await clientPanes()).includes(target), 15_000, {
      what: 'a client attached to the target pane',
    });
    expect(lines(out)).toEqual(['suspend']);
    await inner.client.run(['detach-client', '-s', 'target']);
    await waitFor(() => lines(out).length === 3, 10_000, { what: 'the driver to come back' });
    expect(lines(out).slice(0, 2)).toEqual(['suspend', 'resume']);
    expect(JSON.parse(lines(out)[2] ?? '{}')).toEqual({ status: 'done', message: `back from ${target}` });
    expect(readAudit(home)[0]).toMatchObject({ action: 'attach', target, outcome: 'done' });
  });

  it('inside tmux on the same server: switches the operator client to the pane, no hand-over', async () => {
    const target = await inner.newSession('target', home, 'sleep 100000');
    const out = path.join(home, 'out.log');
    const go = path.join(home, 'go');
    // tower's own pane waits for a client to be looking at it before it runs.
    await inner.client.run([
      'new-session',
      '-d',
      '-s',
      'tower',
      '-c',
      REPO,
      '-x',
      '100',
      '-y',
      '30',
      `sh -c 'while [ ! -e ${q(go)} ]; do sleep 0.05; done; ${driver(target, out).replace(/'/g, `'\\''`)}'`,
    ]);
    await outer.client.run([
      'new-session',
      '-d',
      '-s',
      'term',
      '-x',
      '100',
      '-y',
      '30',
      `env -u TMUX tmux -L ${inner.name} attach-session -t tower`,
    ]);
    await waitFor(async () => (await clientPanes()).length === 1, 10_000, { what: 'the operator client' });
    expect(await clientPanes()).not.toContain(target);
    fs.writeFileSync(go, '');
    await waitFor(() => lines(out).length === 1, 15_000, { what: 'the driver outcome' });
    expect(JSON.parse(lines(out)[0] ?? '{}')).toEqual({
      status: 'done',
      message: `switched your tmux client to ${target}: detach with C-b d (your prefix) to come back to tower`,
    });
    expect(await clientPanes()).toEqual([target]);
  });

  it('fails for a pane that is gone and is refused in read-only mode', async () => {
    const w = actionWorld(inner.name, home);
    w.setSnapshot(snapshotOf());
    let suspended = false;
    const io = { suspend: () => void (suspended = true), resume: () => {} };
    const gone = await attachToPane(w.env, '%999', io);
    expect(gone).toMatchObject({ status: 'failed', message: 'pane %999 is gone' });
    expect(suspended).toBe(false);
    w.ctx.readonly = true;
    expect(await attachToPane(w.env, '%0', io)).toMatchObject({ status: 'refused', message: 'read-only mode' });
    expect(w.audit().map((a) => a.outcome)).toEqual(['failed', 'refused']);
  });
});
