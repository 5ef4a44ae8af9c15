/**
 * `tower hooks` on real settings files, and the installed hook line run the way Claude Code runs
 * hooks (`sh -c`, the event's JSON on stdin, the agent's environment), inside a real tmux pane too.
 * Payload fields as Claude Code's hooks reference gives them (session_id, transcript_path, cwd,
 * hook_event_name, and notification_type for Notification).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GEMINI_HOOK_EVENTS, GEMINI_HOOK_NAME } from '../../src/commands/hooks-gemini.js';
import { EVENTS_FILE_LIMIT, HOOK_EVENTS, hookCommand } from '../../src/commands/hooks-settings.js';
import type { CliSetup } from '../actions/cli-kit.js';
import { buildTower, tower } from '../actions/cli-kit.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = tempDirsPerTest('tower-hooks-');
let bin: string;
let s: CliSetup;
let settings: string;

beforeAll(async () => {
  bin = await buildTower();
}, 60_000);

beforeEach(() => {
  const home = tempDir();
  s = { tower: bin, home, flags: ['--claude-dir', path.join(home, '.claude')] };
  settings = path.join(home, '.claude', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
});

const ORIGINAL = `{
    "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "Notification": [{ "matcher": "permission_prompt", "hooks": [{ "type": "command", "command": "notify-send claude" }] }]
  },
  "model": "opus"
}
`;

describe('tower hooks', () => {
  it('install adds its entry to every event once, keeping everything else; uninstall gives back the very bytes', async () => {
    fs.writeFileSync(settings, ORIGINAL);
    const r = await tower(s, ['hooks', 'install', '--settings', settings]);
    expect(r.exitCode).toBe(0);
    const installed = JSON.parse(fs.readFileSync(settings, 'utf8')) as {
      permissions: unknown;
      model: string;
      hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    };
    expect(installed.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(installed.model).toBe('opus');
    expect(Object.keys(installed.hooks).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(installed.hooks.Notification?.[0]?.hooks[0]?.command).toBe('notify-send claude');
    expect(installed.hooks.Stop?.[0]?.hooks[0]?.command).toBe(hookCommand());
    expect(fs.readFileSync(`${settings}.tower-backup`, 'utf8')).toBe(ORIGINAL);

    expect((await tower(s, ['hooks', 'install', '--settings', settings])).stdout).toContain('already installed');
    expect((await tower(s, ['hooks', 'status', '--settings', settings])).stdout).toContain('no event has arrived yet');
    const events = path.join(s.home, 'state', 'tower', 'hooks', 'events');
    fs.mkdirSync(path.dirname(events), { recursive: true });
    fs.writeFileSync(
      events,
      `1764000000\t%3\t{"hook_event_name":"Stop"}\n1764000060\t\x1b]0;x\x07\t{"hook_event_name":"Stop"}\n`,
    );
    const status = (await tower(s, ['hooks', 'status', '--settings', settings])).stdout;
    expect(status).toContain('installed in');
    // The last line names no pane tower can read: the one before it is the last event.
    expect(status).toContain('last event Stop from %3 at 2025-11-24T16:00:00.000Z');
    expect((await tower(s, ['hooks', 'uninstall', '--settings', settings])).exitCode).toBe(0);
    expect(fs.readFileSync(settings, 'utf8')).toBe(ORIGINAL);
  });

  it('install says which missing folders it creates, and says nothing of folders that were there', async () => {
    const project = path.join(s.home, 'project');
    const file = path.join(project, '.claude', 'settings.json');
    const r = await tower(s, ['hooks', 'install', '--settings', file]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`created the missing folders ${project}, ${path.join(project, '.claude')}`);
    expect(fs.existsSync(file)).toBe(true);
    const again = await tower(s, ['hooks', 'install', '--settings', settings]);
    expect(again.stdout).not.toContain('created the missing');
  });

  it('uninstall after other edits takes out its entries alone', async () => {
    fs.writeFileSync(settings, ORIGINAL);
    await tower(s, ['hooks', 'install', '--settings', settings]);
    const edited = JSON.parse(fs.readFileSync(settings, 'utf8')) as Record<string, unknown>;
    edited.theme = 'dark';
    fs.writeFileSync(settings, JSON.stringify(edited));
    await tower(s, ['hooks', 'uninstall', '--settings', settings]);
    expect(JSON.parse(fs.readFileSync(settings, 'utf8'))).toEqual({
      ...(JSON.parse(ORIGINAL) as object),
      theme: 'dark',
    });
  });

  it('never rewrites a file it cannot parse, asks for the file, and shows the change in a dry run', async () => {
    fs.writeFileSync(settings, '{ "hooks": { oops }');
    const r = await tower(s, ['hooks', 'install', '--settings', settings]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/is not valid JSON/);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{ "hooks": { oops }');
    expect((await tower(s, ['hooks', 'install'])).exitCode).toBe(2);
    fs.writeFileSync(settings, '{}\n');
    const dry = await tower(s, ['hooks', 'install', '--settings', settings, '--dry-run']);
    expect(dry.stdout).toContain('dry run: would write');
    expect(dry.stdout).toContain('# tower-hook');
    expect(fs.readFileSync(settings, 'utf8')).toBe('{}\n');
  });

  it('a dry run prints the hook line once and names the events it goes to', async () => {
    fs.writeFileSync(settings, '{}\n');
    const dry = await tower(s, ['hooks', 'install', '--settings', settings, '--dry-run']);
    expect(dry.stdout.split(hookCommand()).length - 1).toBe(1);
    expect(dry.stdout).toContain(`<tower hook line 1>, in ${HOOK_EVENTS.join(', ')}:\n${hookCommand()}`);
    expect(dry.stdout.split('"<tower hook line 1>"').length - 1).toBe(HOOK_EVENTS.length);
    expect(dry.stdout.length).toBeLessThan(4000);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{}\n');
  });

  it('uninstall removes a settings file the install created, and only while nothing else changed', async () => {
    const file = path.join(s.home, 'fresh', '.claude', 'settings.json');
    expect((await tower(s, ['hooks', 'install', '--settings', file])).exitCode).toBe(0);
    const dry = await tower(s, ['hooks', 'uninstall', '--settings', file, '--dry-run']);
    expect(dry.stdout.trim()).toBe(`dry run: would remove ${file} (tower created it)`);
    const r = await tower(s, ['hooks', 'uninstall', '--settings', file]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('removed the file, which tower');
    expect(fs.existsSync(file)).toBe(false);

    await tower(s, ['hooks', 'install', '--settings', file]);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...edited, model: 'opus' }));
    await tower(s, ['hooks', 'uninstall', '--settings', file]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ model: 'opus' });
  });
});

describe('tower hooks on a shared box', () => {
  it('makes the state folder 0700 and the events files 0600, and the backup keeps the settings file’s mode', async () => {
    fs.writeFileSync(settings, ORIGINAL, { mode: 0o600 });
    fs.chmodSync(settings, 0o600);
    const hooksDir = path.join(s.home, 'state', 'tower', 'hooks');
    fs.mkdirSync(hooksDir, { recursive: true, mode: 0o775 });
    fs.chmodSync(hooksDir, 0o775);
    fs.writeFileSync(path.join(hooksDir, 'events'), '', { mode: 0o644 });
    fs.chmodSync(path.join(hooksDir, 'events'), 0o644);
    const r = await tower(s, ['hooks', 'install', '--settings', settings]);
    expect(r.exitCode).toBe(0);
    const mode = (f: string) => fs.statSync(f).mode & 0o777;
    expect(mode(path.join(s.home, 'state', 'tower'))).toBe(0o700);
    expect(mode(hooksDir)).toBe(0o700);
    expect(mode(path.join(hooksDir, 'held'))).toBe(0o700);
    expect(mode(path.join(hooksDir, 'events'))).toBe(0o600);
    expect(mode(`${settings}.tower-backup`)).toBe(0o600);
    // Installed already: the folders are made private all the same.
    fs.chmodSync(hooksDir, 0o775);
    fs.chmodSync(path.join(hooksDir, 'events'), 0o644);
    expect((await tower(s, ['hooks', 'install', '--settings', settings])).stdout).toContain('already installed');
    expect(mode(hooksDir)).toBe(0o700);
    expect(mode(path.join(hooksDir, 'events'))).toBe(0o600);
  });

  it('refuses a symlinked settings file before writing anything, in one line', async () => {
    const real = path.join(s.home, 'real-settings.json');
    fs.writeFileSync(real, ORIGINAL);
    fs.symlinkSync(real, settings);
    const r = await tower(s, ['hooks', 'install', '--settings', settings]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^tower: refused: .*settings\.json is a symlink \(to .*real-settings\.json\).*nothing was written$/,
    );
    expect(r.stderr).not.toMatch(/Error|\n\s+at /);
    expect(fs.existsSync(`${settings}.tower-backup`)).toBe(false);
    expect(fs.readFileSync(real, 'utf8')).toBe(ORIGINAL);
    expect(fs.existsSync(path.join(s.home, 'state', 'tower'))).toBe(false);
  });

  it('uninstall after --hold-permissions gives back the very bytes of before', async () => {
    fs.writeFileSync(settings, ORIGINAL);
    expect((await tower(s, ['hooks', 'install', '--settings', settings, '--hold-permissions', '30'])).exitCode).toBe(0);
    expect(fs.readFileSync(settings, 'utf8')).toContain('"timeout": 60');
    expect((await tower(s, ['hooks', 'uninstall', '--settings', settings])).exitCode).toBe(0);
    expect(fs.readFileSync(settings, 'utf8')).toBe(ORIGINAL);
  });
});

describe('the hook line', () => {
  let tmux: TmuxFixture;
  beforeAll(async () => {
    tmux = await startTmux();
  });
  afterAll(async () => {
    await tmux.kill();
  });

  const payload = (event: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify(
      {
        session_id: 'f1e2d3c4-0000-4000-8000-000000000001',
        transcript_path: '/home/op/.claude/projects/-srv-app/f1e2.jsonl',
        cwd: '/srv/app',
        hook_event_name: event,
        ...extra,
      },
      null,
      2,
    );

  it('appends the time, the pane and the event as one line under the state dir, and starts afresh past its bound', () => {
    const state = path.join(tempDir(), 'state');
    const run = (json: string) =>
      execFileSync('sh', ['-c', hookCommand()], {
        input: json,
        env: { PATH: process.env.PATH, HOME: '/nonexistent', XDG_STATE_HOME: state, TMUX_PANE: '%7' },
      });
    run(
      payload('Notification', {
        notification_type: 'permission_prompt',
        message: 'Claude needs your permission to use Bash',
      }),
    );
    const events = path.join(state, 'tower', 'hooks', 'events');
    const [line] = fs.readFileSync(events, 'utf8').trimEnd().split('\n');
    const [at, pane, server, json] = line!.split('\t');
    expect(Math.abs(Number(at) - Date.now() / 1000)).toBeLessThan(60);
    expect(pane).toBe('%7');
    expect(server).toBe('');
    expect(JSON.parse(json!)).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
    });
    fs.appendFileSync(events, 'x'.repeat(EVENTS_FILE_LIMIT));
    run(payload('Stop'));
    expect(fs.existsSync(`${events}.1`)).toBe(true);
    expect(fs.readFileSync(events, 'utf8')).toContain('"Stop"');
  });

  it('names the tmux pane the agent runs in, and its server', async () => {
    const state = path.join(tempDir(), 'state');
    const payloadFile = path.join(tempDir(), 'payload.json');
    fs.writeFileSync(payloadFile, payload('UserPromptSubmit', { prompt: 'go' }));
    const script = path.join(tempDir(), 'hook.sh');
    const hook = path.join(tempDir(), 'hook-line.sh');
    fs.writeFileSync(hook, `${hookCommand()}\n`);
    // As Claude Code runs a hook: a shell with the event's JSON on stdin, in the agent's environment.
    fs.writeFileSync(
      script,
      `XDG_STATE_HOME='${state}'; export XDG_STATE_HOME\nsh '${hook}' < '${payloadFile}'\nsleep 100000\n`,
    );
    const pane = await tmux.newSession('agent', tempDir(), `sh ${script}`);
    const events = path.join(state, 'tower', 'hooks', 'events');
    await waitFor(() => fs.existsSync(events) && fs.readFileSync(events, 'utf8').includes('UserPromptSubmit'), 5000, {
      what: 'the event from the pane',
    });
    const socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
    expect(fs.readFileSync(events, 'utf8').split('\t').slice(1, 3)).toEqual([pane, socket]);
  });
});

describe('tower hooks for Gemini CLI', () => {
  const GEMINI_ORIGINAL =
    '{\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "ui": { "hideTips": true }\n}\n';
  let gemini: string;
  beforeEach(() => {
    gemini = path.join(s.home, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(gemini), { recursive: true });
  });

  it('installs under Gemini CLI’s own event names with a name for the hook; uninstall gives back the very bytes', async () => {
    fs.writeFileSync(gemini, GEMINI_ORIGINAL, { mode: 0o600 });
    fs.chmodSync(gemini, 0o600);
    const r = await tower(s, ['hooks', 'install', '--settings', gemini]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Gemini CLI's SessionStart");
    const installed = JSON.parse(fs.readFileSync(gemini, 'utf8')) as {
      hooks: Record<string, { matcher?: string; hooks: { name?: string; command: string; timeout?: number }[] }[]>;
    };
    expect(Object.keys(installed.hooks).sort()).toEqual([...GEMINI_HOOK_EVENTS].sort());
    for (const event of GEMINI_HOOK_EVENTS) {
      expect(installed.hooks[event]).toEqual([
        { matcher: '', hooks: [{ name: GEMINI_HOOK_NAME, type: 'command', command: hookCommand(), timeout: 5000 }] },
      ]);
    }
    expect(fs.statSync(`${gemini}.tower-backup`).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(s.home, 'state', 'tower', 'hooks')).mode & 0o777).toBe(0o700);
    expect((await tower(s, ['hooks', 'status', '--settings', gemini])).stdout).toContain('BeforeTool');
    expect((await tower(s, ['hooks', 'uninstall', '--settings', gemini])).exitCode).toBe(0);
    expect(fs.readFileSync(gemini, 'utf8')).toBe(GEMINI_ORIGINAL);
  });

  it('refuses a symlinked Gemini settings file and a hold it cannot do', async () => {
    const real = path.join(s.home, 'gemini-real.json');
    fs.writeFileSync(real, GEMINI_ORIGINAL);
    fs.symlinkSync(real, gemini);
    const linked = await tower(s, ['hooks', 'install', '--settings', gemini]);
    expect(linked.exitCode).toBe(1);
    expect(linked.stderr).toMatch(/is a symlink .*nothing was written/);
    expect(fs.readFileSync(real, 'utf8')).toBe(GEMINI_ORIGINAL);
    fs.unlinkSync(gemini);
    const held = await tower(s, ['hooks', 'install', '--settings', gemini, '--hold-permissions', '30']);
    expect(held.exitCode).toBe(2);
    expect(held.stderr).toContain('Gemini CLI has no hook that can answer a permission');
    expect(fs.existsSync(gemini)).toBe(false);
  });
});
