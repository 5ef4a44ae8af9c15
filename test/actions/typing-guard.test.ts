/**
 * The guard before typing trusts the agent's own state over its screen: a pane that shows a plain
 * input prompt is refused while the Claude Code session file of the process in it says it waits
 * for a permission prompt, and typed into once the file says it is idle. A real tmux server, the
 * fake lead in the pane, a session file in the 2.1.332 shape (captured) naming that process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { procStartOf } from '../../src/systems/claude-teams/sessions.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { actionWorld, FAKE_LEAD, snapshotOf } from './kit.js';

const CAPTURED = path.join(import.meta.dirname, '../fixtures/claude-code-2.1.332/sessions/waiting-permission.json');

let tmux: TmuxFixture;
beforeEach(async () => {
  tmux = await startTmux();
});
afterEach(async () => {
  await tmux.kill();
});

describe('the guard before typing', () => {
  it("refuses while the agent's session file says it waits for permission, whatever the screen shows", async () => {
    const home = tempDir('tower-home-');
    const w = actionWorld(tmux.name, home);
    const pane = await tmux.newSession('agent', home, `exec node '${FAKE_LEAD}'`);
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('❯'), 10_000, { what: 'the prompt' });
    const pid = (await tmux.client.paneOwner(pane))!.pid;
    const file = path.join(w.ctx.claudeDir, 'sessions', `${pid}.json`);
    const session = (status: 'waiting' | 'idle') => ({
      ...(JSON.parse(fs.readFileSync(CAPTURED, 'utf8')) as Record<string, unknown>),
      pid,
      procStart: procStartOf(pid),
      cwd: home,
      status,
      ...(status === 'waiting' ? { waitingFor: 'permission prompt' } : { waitingFor: undefined }),
    });
    writeFile(file, session('waiting'));
    const run: Run = {
      ...emptyRun('claude-team', 'session', home, null),
      members: [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: pane, state: 'alive', lead: true }],
    };
    w.setSnapshot(snapshotOf(run));

    const send = await runAction(w.env, planAction(w.env, { kind: 'send', run: run.id, text: 'hello' }));
    expect(send).toMatchObject({
      status: 'refused',
      message: `team-lead's pane ${pane} waits for permission: its Claude Code session file says it is waiting for a permission prompt; the line was not typed`,
    });
    const checkpoint = await runAction(w.env, planAction(w.env, { kind: 'checkpoint', run: run.id }));
    expect(checkpoint).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('/checkpoint was not typed'),
    });
    expect(await tmux.client.capturePane(pane)).not.toMatch(/hello|checkpoint/);

    writeFile(file, session('idle'));
    const sent = await runAction(w.env, planAction(w.env, { kind: 'send', run: run.id, text: 'hello' }));
    expect(sent.status).toBe('done');
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('unknown command: hello'), 5000, {
      what: 'the line to land',
    });
    expect(w.audit().map((a) => [a.action, a.outcome])).toEqual([
      ['send', 'refused'],
      ['checkpoint', 'refused'],
      ['send', 'done'],
    ]);
  });
});
