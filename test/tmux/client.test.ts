import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxClient, socketFile } from '../../src/tmux/client.js';
import { TmuxError } from '../../src/tmux/errors.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';

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

describe('TmuxClient with no server', () => {
  it('sees a server that starts after it found none, at its next listing', async () => {
    const name = uniqueSocketName();
    const client = new TmuxClient({ name }, 5000);
    // The first listing asks tmux; the next ones only look for the socket file while it is missing.
    await expect(client.listPanesOrNull()).resolves.toBeNull();
    await expect(client.listPanesOrNull()).resolves.toBeNull();
    expect(fs.existsSync(socketFile({ name }))).toBe(false);
    await client.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'late', '-c', os.tmpdir(), 'sleep 100000']);
    try {
      const panes = await client.listPanesOrNull();
      expect(panes?.length).toBe(1);
      expect(fs.existsSync(socketFile({ name }))).toBe(true);
    } finally {
      await client.killServer();
      fs.rmSync(socketFile({ name }), { force: true });
    }
  });
});

describe('TmuxClient after its server ended', () => {
  it('sees a new server on the socket an ended server left behind', async () => {
    const name = uniqueSocketName();
    const client = new TmuxClient({ name }, 5000);
    const start = () =>
      client.run(['-f', '/dev/null', 'new-session', '-d', '-s', 's', '-c', os.tmpdir(), 'sleep 100000']);
    try {
      await start();
      await client.killServer();
      // The ended server's socket file stays; no server answers on it.
      expect(fs.existsSync(socketFile({ name }))).toBe(true);
      await expect(client.listPanesOrNull()).resolves.toBeNull();
      await expect(client.listPanesOrNull()).resolves.toBeNull();
      await start();
      expect((await client.listPanesOrNull())?.length).toBe(1);
    } finally {
      await client.killServer();
      fs.rmSync(socketFile({ name }), { force: true });
    }
  });
});
