/**
 * tower's PermissionRequest hook holding a request of the real Claude Code 2.1.332: the CLI draws
 * its own dialog all the same, so both ways are open. The first answer wins and tower never
 * answers twice: a dialog answered in the pane first gets nothing from tower (no keys, no answer
 * file); an answer through the hook closes the dialog, and no key is typed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { withHooks } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import { askForDialog, bashTurn } from '../helpers/claude-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

let c: ClaudeRun | null = null;
afterEach(async () => {
  await c?.stop();
  c = null;
});

async function heldClaude(): Promise<ClaudeRun> {
  const hooked = withHooks({}, 60);
  if (!('settings' in hooked)) throw new Error(hooked.refusal);
  return startClaude({
    columns: 120,
    rows: 40,
    settings: { hooks: hooked.settings.hooks },
    script: [bashTurn('run step', 'out-a.txt')],
  });
}

/** The CLI's dialog on screen and tower's hook holding the request, both at once. */
async function dialogAndHold(run: ClaudeRun): Promise<string> {
  await askForDialog(run, 'run step');
  const held = path.join(run.home, '.local/state/tower/hooks/held');
  await waitFor(() => fs.existsSync(held) && fs.readdirSync(held).some((f) => f.endsWith('.req')), 20_000, {
    what: 'the hook to hold the request',
  });
  expect(await run.screen()).toContain('Do you want to proceed?');
  return held;
}

async function world(run: ClaudeRun) {
  const { w, tmux } = actingWorld(run, 'tower-cc-held-');
  w.ctx.env = { ...w.ctx.env, XDG_STATE_HOME: path.join(run.home, '.local/state') };
  const team: Run = {
    ...emptyRun('claude-team', 'session', run.project, null),
    members: [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: run.paneId, state: 'alive', lead: true }],
  };
  const watch = new PaneWatch(tmux);
  await watch.round([run.paneId], null);
  w.setSnapshot(new ActivityOverlay(watch).apply(snapshotOf(team)));
  return { w, tmux, team };
}

// The real CLI starts, asks and runs a command in each test: on a busy machine that has taken more than 30 s.
describe("a request held by tower's hook, with the CLI's own dialog open", { timeout: 90_000 }, () => {
  it('answered in the pane first: tower answers nothing more, no key and no answer file', async () => {
    c = await heldClaude();
    const held = await dialogAndHold(c);
    const { w, tmux, team } = await world(c);
    const plan = planAction(w.env, { kind: 'answer', run: team.id, members: ['team-lead'], choice: '1' });
    expect(plan.title).toContain('Answer through the hook');
    expect(plan.title).toContain('the first answer wins');
    // The CLI ignores keys for a moment after it draws a dialog: on a busy machine the first 1 can
    // land in that moment, so it is pressed again while the dialog is still up.
    const ran = () => fs.existsSync(path.join(c!.project, 'out-a.txt'));
    for (let tries = 0; tries < 4 && !ran(); tries++) {
      if ((await c.screen()).includes('Do you want to proceed?')) await c.keys('1');
      await waitFor(ran, 5000).catch(() => false);
    }
    await waitFor(ran, 5000, { what: 'the command to run' });
    const outcome = await runAction(w.env, plan);
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('the first answer wins') });
    expect(tmux.sent).toEqual([]);
    expect(fs.readdirSync(held).filter((f) => f.endsWith('.answer'))).toEqual([]);
  });

  it('answered through the hook first: the dialog closes, and no key is typed', async () => {
    c = await heldClaude();
    await dialogAndHold(c);
    const { w, tmux, team } = await world(c);
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'answer', run: team.id, members: ['team-lead'], choice: '1' }),
    );
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('through the hook') });
    await waitFor(() => fs.existsSync(path.join(c!.project, 'out-a.txt')), 20_000, { what: 'the command to run' });
    await waitFor(async () => !(await c!.screen()).includes('Do you want to proceed?'), 20_000, {
      what: 'the dialog to close',
    });
    expect(tmux.sent).toEqual([]);
  });
});
