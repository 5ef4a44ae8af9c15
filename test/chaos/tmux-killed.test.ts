/**
 * tower's tmux server killed in the middle of a checkpoint (the lead typed to, its handoff awaited):
 * the action ends on its own, never as done, its audit lines say it began and how it ended, and
 * nothing is typed anywhere after the server is gone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { ActionProgress } from '../../src/kit/types.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { actionWorld, readAuditLines, snapshotOf, tinaFixture, tinaRun } from '../actions/kit.js';

let tmux: TmuxFixture;
beforeEach(async () => {
  tmux = await startTmux();
});
afterEach(async () => {
  await tmux.kill();
});

describe("tower's tmux server killed during a checkpoint", () => {
  it('ends the action as not done, audited begun and ended, nothing offered on a dead server', async () => {
    const home = tempDir('tower-chaos-home-');
    // A lead that never writes its handoff: the action waits until the server goes.
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx, true)));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina', timeoutSec: 4 });
    expect(plan.refusal).toBeNull();
    const progress: ActionProgress[] = [];
    const offered: string[][] = [];
    const running = runAction(w.env, plan, {
      onProgress: (p) => progress.push(p),
      offerTerminate: async (names) => {
        offered.push(names);
        return [];
      },
    });
    await waitFor(async () => (await tmux.client.capturePane(fx.panes.lead)).includes('/tina:checkpoint'), 10_000, {
      what: 'the checkpoint command typed into the lead',
    });
    await tmux.kill();
    const outcome = await running;
    expect(outcome.status).not.toBe('done');
    expect(['failed', 'timeout']).toContain(outcome.status);
    // Nobody to terminate on a server that is gone.
    expect(offered.flat()).toEqual([]);
    const lines = readAuditLines(home);
    expect(lines.map((l) => l.outcome)).toEqual(['begun', outcome.status]);
    expect(lines[0]?.id).toBe(lines[1]?.id);
  }, 30_000);
});
