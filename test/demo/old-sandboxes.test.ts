/**
 * A new demo removes the sandboxes of earlier demos that nothing uses, and only those: never one
 * whose demo still runs (its server names it) or is being built (its process lives), one a process
 * works in, a folder without a demo's marker, or a folder of another name.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_OPTION } from '../../src/context/demo-record.js';
import { removeOldSandboxes } from '../../src/demo/old-sandboxes.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(() => removeTempDirs());

/** A pid no process has any more (a child that has exited and been reaped). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

function sandbox(tmp: string, name: string, marker: object | null): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'projects'), { recursive: true });
  if (marker) fs.writeFileSync(path.join(dir, '.tower-demo'), JSON.stringify(marker));
  return dir;
}

describe('removeOldSandboxes', () => {
  it('removes the sandboxes nothing uses and keeps every other', async () => {
    const tmp = fs.realpathSync(tempDir());
    const gone = deadPid();
    const unused = sandbox(tmp, 'tower-demo-aaaaaa', { by: 'tower demo', pid: gone, socketName: 'tower-demo-aaaaaa' });
    const building = sandbox(tmp, 'tower-demo-bbbbbb', { by: 'tower demo', pid: process.pid });
    const unmarked = sandbox(tmp, 'tower-demo-cccccc', null);
    const worked = sandbox(tmp, 'tower-demo-dddddd', { by: 'tower demo', pid: gone });
    const otherName = sandbox(tmp, 'tower-demo-test-eeeeee', { by: 'tower demo', pid: gone });
    const notOurs = sandbox(tmp, 'tower-demo-ffffff', { by: 'someone', pid: gone });

    // A demo still running: its server names its sandbox.
    const server = await startTmux();
    const running = sandbox(tmp, 'tower-demo-gggggg', { by: 'tower demo', pid: gone, socketName: server.name });
    await server.client.run(['set-option', '-g', SANDBOX_OPTION, running]);

    // A shell left working in one.
    const shell = spawn('sleep', ['60'], { cwd: worked, stdio: 'ignore' });
    await waitFor(() => fs.readlinkSync(`/proc/${shell.pid}/cwd`) === worked, 5000, { what: 'the shell to start' });
    try {
      expect(await removeOldSandboxes(tmp)).toEqual([unused]);
    } finally {
      shell.kill();
      await server.kill();
    }
    for (const kept of [building, unmarked, worked, otherName, notOurs, running])
      expect(fs.existsSync(kept)).toBe(true);
    expect(fs.existsSync(unused)).toBe(false);
  });
});
