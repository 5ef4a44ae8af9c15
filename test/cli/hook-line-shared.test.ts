/**
 * The installed hook line on a shared box, run as Claude Code runs it (`sh -c`, the event's JSON on
 * stdin, the agent's environment): its files are private whatever the agent's umask, it says
 * nothing on the agent's stderr, every event is one whole line even with hooks firing together,
 * and each line names the tmux server (`$TMUX` up to its first comma) beside the pane.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HOOK_EVENTS,
  MAX_HOLD_SECONDS,
  QUICK_PER_SECOND,
  QUICK_SECONDS,
  hookCommand,
  installedEvents,
  installedHold,
  withHooks,
  withoutHooks,
} from '../../src/commands/hooks-settings.js';
import { parseEventLine } from '../../src/store/hook-events.js';
import { readHeldRequest } from '../../src/store/held-requests.js';
import { readFixture, tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-hook-line-');

interface Ran {
  code: number | null;
  stderr: string;
}

/** Runs a hook line under `sh -c` with `env` and `input` on stdin, after `umask` in the same shell. */
function runHook(line: string, env: Record<string, string>, input: string, umask = '0022'): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `umask ${umask}\n${line}`], {
      env: { PATH: process.env.PATH!, HOME: '/nonexistent', ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    // A line that gives up early (no folder can be made) exits without reading its input, as it may:
    // the write then fails with EPIPE, which is the caller's to ignore (Claude Code does).
    child.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') reject(err);
    });
    child.stdin.end(input);
  });
}

const event = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's-1', transcript_path: '/t.jsonl', cwd: '/srv/app', hook_event_name: name, ...extra });

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the hook line on a shared box', () => {
  it('makes its folders 0700 and the events file 0600 under a umask of 0002', async () => {
    const state = path.join(tempDir(), 'state');
    const r = await runHook(hookCommand(), { XDG_STATE_HOME: state, TMUX_PANE: '%3' }, event('Stop'), '0002');
    expect(r).toEqual({ code: 0, stderr: '' });
    expect(mode(path.join(state, 'tower'))).toBe(0o700);
    expect(mode(path.join(state, 'tower', 'hooks'))).toBe(0o700);
    expect(mode(path.join(state, 'tower', 'hooks', 'events'))).toBe(0o600);
  });

  it('says nothing on stderr and exits 0 on a box with no folder yet, and where no folder can be made', async () => {
    const state = path.join(tempDir(), 'state');
    const first = await runHook(hookCommand(), { XDG_STATE_HOME: state, TMUX_PANE: '%3' }, event('SessionStart'));
    expect(first).toEqual({ code: 0, stderr: '' });
    expect(fs.readFileSync(path.join(state, 'tower', 'hooks', 'events'), 'utf8')).toContain('SessionStart');
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, '');
    for (const hold of [0, 5]) {
      const r = await runHook(hookCommand(hold), { XDG_STATE_HOME: file, TMUX_PANE: '%3' }, event('Stop'));
      expect(r).toEqual({ code: 0, stderr: '' });
    }
  });

  it('names the tmux server socket beside the pane; outside tmux, and on lines of the older form, the server is unknown', async () => {
    const state = path.join(tempDir(), 'state');
    const env = { XDG_STATE_HOME: state, TMUX_PANE: '%12', TMUX: '/tmp/tmux-1000/work box,4211,0' };
    await runHook(hookCommand(), env, event('UserPromptSubmit', { prompt: 'go' }));
    await runHook(hookCommand(), { XDG_STATE_HOME: state }, event('Stop'));
    await runHook(hookCommand(), { ...env, TMUX: 'relative/sock,1,0', TMUX_PANE: '%1\t%2' }, event('Stop'));
    const lines = fs
      .readFileSync(path.join(state, 'tower', 'hooks', 'events'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines.map(parseEventLine)).toEqual([
      expect.objectContaining({ pane: '%12', server: '/tmp/tmux-1000/work box', event: 'UserPromptSubmit' }),
      expect.objectContaining({ pane: '', server: null, event: 'Stop' }),
      // A server that is no absolute path and a pane that is no pane id are not written.
      expect.objectContaining({ pane: '', server: null, event: 'Stop' }),
    ]);
    expect(parseEventLine(`1764000000\t%3\t{"hook_event_name":"Stop"}`)).toMatchObject({ pane: '%3', server: null });
    expect(parseEventLine(`1764000000\t%3\tnot/a/socket\t{"hook_event_name":"Stop"}`)).toBeNull();
  });

  it('looks for its answer every 0.05 s first, then every 0.2 s, the looks of both adding up to the hold', () => {
    for (const hold of [1, 5, 30, 45, MAX_HOLD_SECONDS]) {
      const line = hookCommand(hold);
      const quick = /i=0; while \[ "\$i" -lt (\d+) \] && \[ ! -f "\$h\/\$r\.answer" \]; do sleep ([\d.]+);/.exec(line);
      const slow = /i=(\d+); while \[ "\$i" -lt (\d+) \] && \[ ! -f "\$h\/\$r\.answer" \]; do sleep 0\.2;/.exec(line);
      expect(quick?.[2]).toBe(String(1 / QUICK_PER_SECOND));
      const quickLooks = Number(quick?.[1]);
      expect(quickLooks).toBe(Math.min(hold, QUICK_SECONDS) * QUICK_PER_SECOND);
      const slowLooks = Number(slow?.[2]) - Number(slow?.[1]);
      expect(quickLooks / QUICK_PER_SECOND + slowLooks * 0.2).toBeCloseTo(hold, 6);
      expect(slowLooks).toBeGreaterThanOrEqual(0);
    }
  });

  it('holds a request with the server in its first line, in a folder made 0700', async () => {
    const state = path.join(tempDir(), 'state');
    const held = path.join(state, 'tower', 'hooks', 'held');
    const env = { XDG_STATE_HOME: state, TMUX_PANE: '%4', TMUX: '/tmp/tmux-1000/default,99,1' };
    const hook = runHook(hookCommand(5), env, event('PermissionRequest', { tool_name: 'Bash' }), '0002');
    let names: string[] = [];
    const until = Date.now() + 5000;
    while (names.length === 0 && Date.now() < until) {
      names = fs.existsSync(held) ? fs.readdirSync(held).filter((n) => n.endsWith('.req')) : [];
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(names).toHaveLength(1);
    expect(readHeldRequest(held, names[0]!)).toMatchObject({ paneId: '%4', server: '/tmp/tmux-1000/default' });
    expect(mode(held)).toBe(0o700);
    fs.writeFileSync(path.join(held, names[0]!.replace('.req', '.answer')), 'deny\n');
    expect(await hook).toEqual({ code: 0, stderr: '' });
  });

  it('writes each event as one whole line: 4 hooks firing together, 100 rounds, 400 of 400 parse, none misattributed', async () => {
    const state = path.join(tempDir(), 'state');
    const panes = ['%1', '%2', '%3', '%4'];
    // Long enough that a line written in pieces interleaves with another's (400 of them stay under
    // the size where the file is started afresh).
    const pad = 'x'.repeat(2000);
    for (let round = 0; round < 100; round++) {
      const runs = panes.map((pane) =>
        runHook(
          hookCommand(),
          { XDG_STATE_HOME: state, TMUX_PANE: pane, TMUX: `/tmp/tmux-1000/s${pane.slice(1)},1,0` },
          event('PostToolUse', { tool_name: 'Bash', tool_input: { command: `echo ${pane} ${round}` }, pad }),
        ),
      );
      expect((await Promise.all(runs)).every((r) => r.code === 0 && r.stderr === '')).toBe(true);
    }
    const text = fs.readFileSync(path.join(state, 'tower', 'hooks', 'events'), 'utf8');
    const lines = text.split('\n').slice(0, -1);
    const parsed = lines.map(parseEventLine).filter((e) => e !== null);
    expect(parsed).toHaveLength(400);
    const wrong = lines.filter((l) => {
      const e = parseEventLine(l)!;
      const said = /"command":"echo (%\d) \d+"/.exec(l)?.[1];
      return said !== e.pane || e.server !== `/tmp/tmux-1000/s${e.pane.slice(1)}`;
    });
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe('an install made by the line before it named the server', () => {
  // Settings as that tower wrote them with --hold-permissions 45, beside the operator's own Stop hook.
  const before = JSON.parse(readFixture('hooks/settings-before-server-field.json')) as Record<string, unknown>;

  it('is recognised, its hold read, replaced in place by install and taken out by uninstall', () => {
    expect(installedEvents(before).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(installedHold(before)).toBe(45);
    const again = withHooks(before, 45);
    expect('added' in again && again.added.sort()).toEqual([...HOOK_EVENTS].sort());
    const hooks = ('settings' in again ? again.settings.hooks : {}) as Record<
      string,
      { hooks: { command: string }[] }[]
    >;
    expect(hooks.Stop?.map((g) => g.hooks[0]?.command)).toEqual(['notify-send done', hookCommand()]);
    expect(hooks.PermissionRequest?.map((g) => g.hooks[0]?.command)).toEqual([hookCommand(45)]);
    expect(withoutHooks(before).settings).toEqual({
      model: 'opus',
      hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'notify-send done' }] }] },
    });
  });
});
