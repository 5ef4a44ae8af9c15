import { afterEach, describe, expect, it } from 'vitest';
import { TmuxClient } from '../../src/tmux/client.js';
import { TmuxError } from '../../src/tmux/errors.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';

let tmux: TmuxFixture | null = null;
let stopped: number | null = null;

afterEach(async () => {
  if (stopped !== null) process.kill(stopped, 'SIGCONT');
  stopped = null;
  await tmux?.kill();
  tmux = null;
});

describe('TmuxClient', () => {
  it('fails with a typed timeout when the server stops answering, instead of hanging', async () => {
    tmux = await startTmux();
    const pid = Number((await tmux.client.run(['display-message', '-p', '#{pid}'])).trim());
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGSTOP');
    stopped = pid;
    const client = new TmuxClient({ name: tmux.name }, 400);
    const started = Date.now();
    const err = await client.listPanes().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TmuxError);
    expect((err as TmuxError).kind).toBe('timeout');
    // The call gives up near its timeout, not when the stopped server lets go of the pipes.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('says there is no server on an unused socket', async () => {
    const client = new TmuxClient({ name: `tower-test-none-${process.pid}` }, 2000);
    await expect(client.listPanes()).rejects.toMatchObject({ kind: 'no-server' });
    await expect(client.listPanesOrNull()).resolves.toBeNull();
  });
});
