/**
 * A private tmux server for tests: `-L tower-test-<unique>`, no config file, killed by `kill()`.
 * Never touches the default server.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { TmuxClient } from '../../src/tmux/client.js';
import { closeSocketAfterFile, stopAfterFile } from './leftovers.js';

export interface TmuxFixture {
  /** The socket name (`-L`). */
  name: string;
  client: TmuxClient;
  /** Starts a detached session whose first pane runs `command` (default a long sleep) in `cwd`. */
  newSession(session: string, cwd: string, command?: string): Promise<string>;
  /** Kills the server and removes its socket file (safe to call twice). */
  kill(): Promise<void>;
}

/** This test run's id (set by the suite's global setup), so its sockets can be told from other runs'. */
export function testRunId(): string {
  return process.env.TOWER_TEST_RUN ?? `pid${process.pid}`;
}

/** A socket name no other test (or person) uses; it carries the run id (see hygiene-setup.ts). */
export function uniqueSocketName(prefix = 'tower-test'): string {
  return closeSocketAfterFile(`${prefix}-${testRunId()}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
}

/** Starts a session of its own (120×30) on a client's server, running `command` in `cwd`; its pane id. */
export async function newSessionPane(
  client: TmuxClient,
  session: string,
  cwd: string,
  command = 'sleep 100000',
): Promise<string> {
  const out = await client.run([
    'new-session',
    '-d',
    '-P',
    '-F',
    '#{pane_id}',
    '-s',
    session,
    '-c',
    cwd,
    '-x',
    '120',
    '-y',
    '30',
    command,
  ]);
  return out.trim();
}

/** Starts a server with one session `base` (in the temp dir, which holds no project) and returns it. */
export async function startTmux(): Promise<TmuxFixture> {
  const name = uniqueSocketName();
  const client = new TmuxClient({ name }, 5000);
  const newSession = (session: string, cwd: string, command?: string): Promise<string> =>
    newSessionPane(client, session, cwd, command);
  // -f /dev/null: the test server must not read anyone's ~/.tmux.conf.
  await client.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'base', '-c', os.tmpdir(), 'sleep 100000']);
  const socket = (await client.run(['display-message', '-p', '#{socket_path}'])).trim();
  const kill = async (): Promise<void> => {
    await client.killServer();
    // tmux leaves its socket file behind; thousands of test runs would leave thousands.
    if (socket.includes(name)) fs.rmSync(socket, { force: true });
  };
  stopAfterFile(kill);
  return { name, client, newSession, kill };
}

/** True while any process of the process group `pgid` is left. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Kills tmux servers and waits (up to `timeoutMs`) until every process their panes started is gone.
 * A pane's process leads a process group of its own, so what it started (a `tower demo` and the
 * demo's agents, ending on SIGHUP) is waited for too: a folder they write into can then be removed
 * without one of them creating a file in it half-way through.
 */
export async function killServersAndWait(
  clients: TmuxClient[],
  kill: (client: TmuxClient) => Promise<void>,
  timeoutMs = 10_000,
): Promise<void> {
  const groups: number[] = [];
  for (const client of clients) {
    const panes = await client.listPanesOrNull().catch(() => null);
    for (const pane of panes ?? []) groups.push(pane.pid);
  }
  await Promise.allSettled(clients.map((c) => kill(c)));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && groups.some(groupAlive)) await new Promise((r) => setTimeout(r, 50));
}
