/**
 * Control-socket folders left by towers that were killed: the next start removes those nothing
 * uses (a dead ssh master's socket, a tower that is gone) and keeps the others.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeOldControlDirs } from '../../src/remote/old-control-dirs.js';
import { ControlDir } from '../../src/remote/ssh.js';
import { tempDir } from '../helpers/box.js';
import { waitFor } from '../helpers/wait-for.js';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A folder as a killed tower leaves it: its pid file names a process that is gone, `h0` a socket nobody listens on. */
async function leftByKilledTower(root: string, name: string): Promise<string> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  const socket = path.join(dir, 'h0');
  // A process listens on h0 and is killed: the socket file stays, with nothing behind it (as ssh's master leaves it).
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socket)})`]);
  await waitFor(() => fs.existsSync(socket), 10_000, { what: 'the socket' });
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  fs.writeFileSync(path.join(dir, 'pid'), `${child.pid}\n`);
  return dir;
}

describe('removeOldControlDirs', () => {
  it("removes a killed tower's folder with a dead h0 and keeps those in use", async () => {
    const root = tempDir('tower-ctl-root-');
    const dead = await leftByKilledTower(root, 'tower-ssh-abc123');
    // A folder whose ssh master still answers (its pid file names a dead process all the same).
    const live = await leftByKilledTower(root, 'tower-ssh-def456');
    fs.rmSync(path.join(live, 'h0'));
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((r) => server.listen(path.join(live, 'h0'), r));
    // This tower's own folder: its pid runs.
    const own = new ControlDir(root);
    // Not ours by name: never touched.
    const other = path.join(root, 'tower-sshX-abc123');
    fs.mkdirSync(other);
    try {
      expect(await removeOldControlDirs([root])).toEqual([dead]);
      expect(fs.existsSync(dead)).toBe(false);
      expect(fs.existsSync(live)).toBe(true);
      expect(fs.existsSync(own.path)).toBe(true);
      expect(fs.existsSync(other)).toBe(true);
    } finally {
      own.dispose();
    }
  });

  it('leaves a folder without a pid file until it is a minute old', async () => {
    const root = tempDir('tower-ctl-root-');
    const dir = await leftByKilledTower(root, 'tower-ssh-ghi789');
    fs.rmSync(path.join(dir, 'pid'));
    const made = fs.statSync(dir).mtimeMs;
    expect(await removeOldControlDirs([root], made + 1000)).toEqual([]);
    expect(await removeOldControlDirs([root], made + 61_000)).toEqual([dir]);
  });
});
