/** Force-terminate against real panes: process trees, a teammate that ignores SIGTERM, leads left alone. */
import { pidAlive } from '../../src/kit/process-tree.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { processTree } from '../../src/kit/process-tree.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { TinaFixture } from './kit.js';
import { actionWorld, snapshotOf, tinaFixture, tinaRun } from './kit.js';

let tmux: TmuxFixture;
let fx: TinaFixture;
let home: string;
beforeEach(async () => {
  tmux = await startTmux();
  home = tempDir('tower-home-');
  fx = await tinaFixture(tmux, { home });
});
afterEach(async () => {
  await tmux.kill();
});

async function panePid(paneId: string): Promise<number> {
  const pane = (await tmux.client.listPanes()).find((p) => p.paneId === paneId);
  if (!pane) throw new Error(`no pane ${paneId}`);
  return pane.pid;
}

describe('terminate', () => {
  it("kills the working team's teammates, the SIGTERM-ignoring one's whole tree included, and never a lead", async () => {
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    // Wait until the stubborn teammate has a `sleep` child, so its tree has more than one process.
    const stubbornPid = await panePid(fx.panes.worker2);
    const tree = await waitFor(
      () => {
        const t = processTree(stubbornPid);
        return t.length >= 2 ? t : null;
      },
      5000,
      { what: 'the stubborn teammate to fork sleep' },
    );
    const plan = planAction(w.env, { kind: 'terminate', run: 'tina:auth' });
    expect(plan.refusal).toBeNull();
    expect(plan.target).toBe('worker-1,worker-2');
    expect(plan.effects.map((e) => e.text)).toContain(`tmux -L ${tmux.name} kill-pane -t ${fx.panes.worker2}`);
    expect(plan.effects.some((e) => e.text.includes(fx.panes.lead) || e.text.includes(fx.panes.orchestrator))).toBe(
      false,
    );

    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    const w2 = outcome.details?.find((d) => d.startsWith(`worker-2 (${fx.panes.worker2})`));
    expect(w2).toContain('ignored it and got SIGKILL');
    expect(w2).toContain('pane closed; no process left');
    for (const p of tree) expect(pidAlive(p.pid)).toBe(false);
    const panes = (await tmux.client.listPanes()).map((p) => p.paneId);
    expect(panes).not.toContain(fx.panes.worker1);
    expect(panes).not.toContain(fx.panes.worker2);
    expect(panes).toContain(fx.panes.lead);
    expect(panes).toContain(fx.panes.orchestrator);
    expect(w.audit()[0]).toMatchObject({ action: 'terminate', outcome: 'done', target: 'worker-1,worker-2' });
  });

  it('terminates a lead only when it is named', async () => {
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const leadPid = await panePid(fx.panes.lead);
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['team-lead'] }),
      {},
    );
    expect(outcome.status).toBe('done');
    expect(pidAlive(leadPid)).toBe(false);
    const panes = (await tmux.client.listPanes()).map((p) => p.paneId);
    expect(panes).not.toContain(fx.panes.lead);
    expect(panes).toContain(fx.panes.worker1);
    expect(panes).toContain(fx.panes.worker2);
  });

  it('refuses names that are not members, and reports panes already gone', async () => {
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const unknown = planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['stranger'] });
    expect(unknown.refusal).toContain('no member named "stranger"');

    // The pane died after the snapshot was read: reported as already gone, a refusal (nothing to do).
    await tmux.client.killPane(fx.panes.worker1);
    const gone = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['worker-1'] }),
      {},
    );
    expect(gone.status).toBe('refused');
    expect(gone.message).toContain('worker-1 already gone');

    // Known dead in the snapshot: refused at planning.
    const run = tinaRun(fx);
    run.members = run.members.map((m) => (m.name === 'worker-1' ? { ...m, state: 'dead' as const } : m));
    w.setSnapshot(snapshotOf(run));
    const planned = planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['worker-1'] });
    expect(planned.refusal).toContain(`worker-1 (${fx.panes.worker1}): already gone`);
    expect(w.audit().map((a) => a.outcome)).toEqual(['refused']);
  });

  it('touches only member panes: a pane of no member survives', async () => {
    const stranger = await tmux.newSession('stranger', home, 'sleep 100000');
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    expect((await runAction(w.env, planAction(w.env, { kind: 'terminate', run: 'tina:auth' }), {})).status).toBe(
      'done',
    );
    expect((await tmux.client.listPanes()).map((p) => p.paneId)).toContain(stranger);
  });

  it('is refused in read-only mode and with no tmux server', async () => {
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    w.ctx.readonly = true;
    expect(planAction(w.env, { kind: 'terminate', run: 'tina:auth' }).refusal).toBe('read-only mode');
    w.ctx.readonly = false;
    const plan = planAction(w.env, { kind: 'terminate', run: 'tina:auth' });
    await tmux.kill();
    await waitFor(async () => (await tmux.client.listPanesOrNull()) === null, 5000, { what: 'the server to exit' });
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'refused' });
    expect(outcome.message).toContain('no tmux server');
  });
});
