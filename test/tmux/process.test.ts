/**
 * tmux run with node's own child_process: output, failures classified from stderr, a missing tmux,
 * cancellation, and the TMUX variable emptied so a call from inside tmux reaches the named server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxClient } from '../../src/tmux/client.js';
import { runTmuxProcess } from '../../src/tmux/process.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';

let tmux: TmuxFixture | null = null;
const savedPath = process.env.PATH;
const savedTmux = process.env.TMUX;

afterEach(async () => {
  process.env.PATH = savedPath;
  if (savedTmux === undefined) delete process.env.TMUX;
  else process.env.TMUX = savedTmux;
  await tmux?.kill();
  tmux = null;
});

describe('tmux processes', () => {
  it('give stdout, and a typed error for a pane that does not exist', async () => {
    tmux = await startTmux();
    const client = new TmuxClient({ name: tmux.name }, 5000);
    expect((await client.run(['display-message', '-p', 'a#{session_name}b'])).trim()).toBe('abaseb');
    await expect(client.run(['send-keys', '-t', '%99999', 'x'])).rejects.toMatchObject({ kind: 'no-such-pane' });
  });

  it('say tmux is not installed when it is not on the PATH', async () => {
    process.env.PATH = '/nonexistent-tower-test';
    const client = new TmuxClient({ name: 'tower-test-none' }, 2000);
    await expect(client.run(['list-sessions'])).rejects.toMatchObject({ kind: 'not-installed' });
    await expect(client.listPanesOrNull()).resolves.toBeNull();
  });

  it('stop when cancelled, with a typed error', async () => {
    tmux = await startTmux();
    const client = new TmuxClient({ name: tmux.name }, 5000);
    const abort = new AbortController();
    abort.abort();
    await expect(client.run(['list-panes', '-a'], { signal: abort.signal })).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('cancelled'),
    });
  });

  it('ignore a TMUX variable pointing elsewhere', async () => {
    tmux = await startTmux();
    process.env.TMUX = '/nonexistent/socket,1,0';
    const r = await runTmuxProcess(['-L', tmux.name, 'display-message', '-p', '#{session_name}'], 5000, undefined);
    expect({ code: r.code, out: r.stdout.trim(), timedOut: r.timedOut, hung: r.hung }).toEqual({
      code: 0,
      out: 'base',
      timedOut: false,
      hung: false,
    });
  });

  it('keep an answer that came while the event loop was held up past the timeout', async () => {
    tmux = await startTmux();
    const pending = runTmuxProcess(['-L', tmux.name, 'display-message', '-p', 'a#{session_name}b'], 100, undefined);
    // A long synchronous read (10,000 teams under load): tmux answers meanwhile, and both of the
    // process's timers are due when the loop comes back.
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      // held up on purpose
    }
    const r = await pending;
    expect(r).toMatchObject({ code: 0, timedOut: false, hung: false });
    expect(r.stdout.trim()).toBe('abaseb');
  });
});
