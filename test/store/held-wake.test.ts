/**
 * The held hook waits to be woken: it makes a FIFO beside its request and holds it open, `tower
 * answer` writes the answer file and then one byte into the FIFO. A byte alone answers nothing, a
 * file alone (an older tower) is still taken, a signal ends the wait with nothing of the hook left
 * running, and the byte is written only into a FIFO of this user's, never blocking.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookCommand, permissionDecision } from '../../src/commands/hooks-settings.js';
import { heldDir, wakeHeld } from '../../src/store/held-requests.js';
import { tempDir } from '../helpers/box.js';
import { groupAlive } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let home: string;
let state: string;
const children: ReturnType<typeof spawn>[] = [];

beforeEach(() => {
  home = tempDir('tower-held-wake-');
  state = path.join(home, 'state');
});

afterEach(() => {
  for (const c of children.splice(0)) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGKILL');
    } catch {
      // Gone.
    }
  }
  fs.rmSync(home, { recursive: true, force: true });
});

const held = () => heldDir(path.join(state, 'tower'));

/** The hook line under `sh -c`, in a process group of its own (so what it starts can be looked for). */
function holdingHook(hold: number) {
  const child = spawn('sh', ['-c', hookCommand(hold)], {
    env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: state, TMUX_PANE: '%1', TMUX: '/tmp/x,1,0' },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stdin!.end(
    JSON.stringify({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'ls' } }),
  );
  const done = new Promise<{ out: string; code: number | null }>((resolve) =>
    child.on('close', (code) => resolve({ out, code })),
  );
  return { child, done };
}

/** The held request's id once the hook waits on its FIFO. */
async function waiting(): Promise<string> {
  let id = '';
  await waitFor(
    () => {
      const names = fs.existsSync(held()) ? fs.readdirSync(held()) : [];
      const wake = names.find((n) => n.endsWith('.wake'));
      id = wake?.slice(0, -'.wake'.length) ?? '';
      return wake !== undefined && names.includes(`${id}.req`);
    },
    5000,
    { what: 'the hook waiting on its FIFO' },
  );
  return id;
}

describe('the held hook woken through its FIFO', () => {
  it('makes a FIFO of its own, takes the answer when woken, and leaves nothing behind', async () => {
    const hook = holdingHook(60);
    const id = await waiting();
    const wake = path.join(held(), `${id}.wake`);
    const st = fs.lstatSync(wake);
    expect(st.isFIFO()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    fs.writeFileSync(path.join(held(), `${id}.answer`), 'allow\n');
    wakeHeld(wake);
    expect(await hook.done).toEqual({ out: `${permissionDecision('allow')}\n`, code: 0 });
    expect(fs.readdirSync(held())).toEqual([]);
    expect(groupAlive(hook.child.pid!)).toBe(false);
  });

  it('goes on holding after a byte with no answer, and takes a file written without a byte', async () => {
    const hook = holdingHook(60);
    const id = await waiting();
    wakeHeld(path.join(held(), `${id}.wake`));
    // Woken with no answer: it waits on (its request still there, nothing printed).
    await new Promise((r) => setTimeout(r, 300));
    expect(hook.child.exitCode).toBeNull();
    expect(fs.existsSync(path.join(held(), `${id}.req`))).toBe(true);
    // An older tower writes the file alone: the hook's next look finds it.
    fs.writeFileSync(path.join(held(), `${id}.answer`), 'deny\n');
    expect(await hook.done).toEqual({ out: `${permissionDecision('deny')}\n`, code: 0 });
  });

  it('ends its wait with the hook on a signal: nothing of it left running, nothing printed', async () => {
    const hook = holdingHook(60);
    await waiting();
    // The hook's own processes: the shell, and `timeout` with its `head` while it waits.
    await waitFor(
      () => fs.readFileSync(`/proc/${hook.child.pid}/task/${hook.child.pid}/children`, 'utf8').trim(),
      5000,
      {
        what: 'the wait under way',
      },
    );
    hook.child.kill('SIGTERM');
    expect(await hook.done).toEqual({ out: '', code: 0 });
    await waitFor(() => !groupAlive(hook.child.pid!), 5000, { what: 'the wait gone with the hook' });
  });

  it('writes its byte only into a FIFO, never through a link, and never blocks without a reader', () => {
    const dir = path.join(home, 'd');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'plain.wake');
    fs.writeFileSync(file, 'x');
    wakeHeld(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
    const link = path.join(dir, 'link.wake');
    fs.symlinkSync(file, link);
    wakeHeld(link);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
    // A FIFO nobody reads: no wait, no error.
    const fifo = path.join(dir, 'lone.wake');
    spawn('mkfifo', [fifo]).on('error', () => undefined);
    return waitFor(() => fs.existsSync(fifo), 5000, { what: 'the FIFO' }).then(() => {
      wakeHeld(fifo);
      wakeHeld(path.join(dir, 'missing.wake'));
      expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    });
  });
});
