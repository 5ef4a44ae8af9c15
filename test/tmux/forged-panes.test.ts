/**
 * A pane whose working directory holds newlines, tabs and text shaped like a `list-panes` line
 * must not forge a pane: tower sees exactly the real panes with their real paths, and
 * force-terminate never signals a process that is not in the chosen pane's tree right then.
 */
import { pidAlive } from '../../src/kit/process-tree.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Member } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import type { PaneInfo } from '../../src/tmux/client.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { actionWorld, snapshotOf } from '../actions/kit.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let tmux: TmuxFixture;
let dir: string;
let home: string;
let decoy: ChildProcess;
let evilCwd: string;
beforeEach(async () => {
  tmux = await startTmux();
  dir = tempDir('tower-forge-');
  home = tempDir('tower-home-');
  // A process outside tmux that a forged record would name.
  decoy = spawn('sleep', ['1000'], { stdio: 'ignore' });
  const pid = decoy.pid ?? 0;
  const forged = [`%99\t${pid}\tfake\t0\t0\t0\tsleep\t${dir}\tfake`, `%98\t${pid}\tfake2\t0\t0\t0\tbash\t/\tx`].join(
    '\n',
  );
  evilCwd = path.join(dir, `a\n${forged}\nb\tc`);
  fs.mkdirSync(evilCwd, { recursive: true });
});
afterEach(async () => {
  decoy.kill('SIGKILL');
  await tmux.kill();
  for (const d of [dir, home]) fs.rmSync(d, { recursive: true, force: true });
});

function member(name: string, paneId: string): Member {
  return { name, role: 'worker', model: 'm', paneId, state: 'alive', lead: false, team: 'forge' } as Member;
}

describe('list-panes with a hostile pane path', () => {
  it('gives exactly the real panes, the hostile path kept whole', async () => {
    const evil = await tmux.newSession('evil', evilCwd);
    // tmux reads a pane's folder from its process: wait until that process runs its command.
    await waitFor(
      async () => {
        const pid = (await tmux.client.listPanes()).find((p) => p.paneId === evil)?.pid;
        const comm = pid === undefined ? '' : fs.readFileSync(`/proc/${pid}/comm`, { encoding: 'utf8', flag: 'r' });
        return comm.trim() === 'sleep';
      },
      5000,
      { what: 'the pane to run its command' },
    );
    const panes = await tmux.client.listPanes();
    expect(panes.map((p) => p.paneId).sort()).toEqual([...new Set(panes.map((p) => p.paneId))].sort());
    expect(panes).toHaveLength(2);
    expect(panes.some((p) => p.paneId === '%99' || p.paneId === '%98' || p.session.startsWith('fake'))).toBe(false);
    const mine = panes.find((p) => p.paneId === evil);
    expect(mine?.cwd).toBe(evilCwd);
    expect(mine?.session).toBe('evil');
    expect(mine?.pid).not.toBe(decoy.pid);
  });

  it('terminate of a member named by a forged pane id touches nothing; the real pane is terminated', async () => {
    const evil = await tmux.newSession('evil', evilCwd);
    const w = actionWorld(tmux.name, home);
    const run = emptyRun('claude-team', 'forge', null, null);
    run.members = [member('ghost', '%99'), member('real', evil)];
    w.setSnapshot(snapshotOf(run));
    const ghost = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'claude-team:forge', members: ['ghost'] }),
      {},
    );
    expect(ghost.status).toBe('refused');
    expect(pidAlive(decoy.pid ?? 0)).toBe(true);
    const real = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'claude-team:forge', members: ['real'] }),
      {},
    );
    expect(real.status).toBe('done');
    expect(pidAlive(decoy.pid ?? 0)).toBe(true);
    expect((await tmux.client.listPanes()).map((p) => p.paneId)).not.toContain(evil);
  });

  it('a pane pid that is not the pane process right then is never signalled', async () => {
    const pane = await tmux.newSession('work', dir);
    // A client whose pane list is wrong about one pid, as a parsing slip would be.
    class LyingClient extends TmuxClient {
      override async listPanes(): Promise<PaneInfo[]> {
        return (await super.listPanes()).map((p) => (p.paneId === pane ? { ...p, pid: decoy.pid ?? 0 } : p));
      }
    }
    const w = actionWorld(tmux.name, home);
    w.ctx.tmux = new LyingClient({ name: tmux.name }, 5000);
    const run = emptyRun('claude-team', 'forge', null, null);
    run.members = [member('worker', pane)];
    w.setSnapshot(snapshotOf(run));
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'claude-team:forge', members: ['worker'] }),
      {},
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.details?.join('\n')).toContain("is not that pane's process now");
    expect(pidAlive(decoy.pid ?? 0)).toBe(true);
    expect((await tmux.client.listPanes()).map((p) => p.paneId)).toContain(pane);
  });
});
