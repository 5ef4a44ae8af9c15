/**
 * The guard before typing trusts the agent's own state over its screen: a pane that shows a plain
 * input prompt is refused while the Claude Code session file of the process in it says it waits
 * for a permission prompt, and typed into once the file says it is idle; and refused while tower's
 * hook (the installed line, run as the CLI runs it) holds a permission request from it. A real tmux
 * server, the fake lead in the pane, a session file in the 2.1.332 shape (captured) naming it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import { heldRequestFor } from '../../src/store/held-requests.js';
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

  it("refuses while tower's hook holds a permission request from the pane, and types once it is gone", async () => {
    const home = tempDir('tower-home-');
    const w = actionWorld(tmux.name, home);
    const pane = await tmux.newSession('agent', home, `exec node '${FAKE_LEAD}'`);
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('❯'), 10_000, { what: 'the prompt' });
    const socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
    const run: Run = {
      ...emptyRun('claude-team', 'session', home, null),
      members: [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: pane, state: 'alive', lead: true }],
    };
    w.setSnapshot(snapshotOf(run));
    const hook = spawn('sh', ['-c', hookCommand(30)], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_STATE_HOME: w.ctx.env.XDG_STATE_HOME,
        TMUX_PANE: pane,
        TMUX: `${socket},1,0`,
      },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    try {
      hook.stdin.on('error', () => undefined);
      hook.stdin.end(
        JSON.stringify({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'touch X' } }),
      );
      await waitFor(() => heldRequestFor(path.join(w.ctx.env.XDG_STATE_HOME!, 'tower'), socket, pane) !== null, 5000, {
        what: 'the hook to hold the request',
      });
      const send = await runAction(w.env, planAction(w.env, { kind: 'send', run: run.id, text: 'hello' }));
      expect(send).toMatchObject({
        status: 'refused',
        message: expect.stringMatching(
          /waits for permission: tower's hook holds a permission request from it \(\d+-\d+, Bash\); the line was not typed$/,
        ),
      });
      expect(await tmux.client.capturePane(pane)).not.toContain('hello');
    } finally {
      hook.kill('SIGKILL');
    }
    await waitFor(() => hook.exitCode !== null || hook.signalCode !== null, 5000, { what: 'the hook to end' });
    const sent = await runAction(w.env, planAction(w.env, { kind: 'send', run: run.id, text: 'hello' }));
    expect(sent.status).toBe('done');
  });
});
