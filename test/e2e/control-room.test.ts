/**
 * End to end: the real `tower` (bundled from the current source) running in a real tmux pane on a
 * private server, driven by send-keys and read by capture-pane, on a copy of the fixture box.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box } from '../helpers/box.js';
import { buildBox, tempDir } from '../helpers/box.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { buildCli } from '../helpers/built-cli.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const socket = uniqueSocketName('tower-e2e');
let box: Box;
let home: string;
let cli: BuiltCli;
let tower: string;

const tmux = async (...args: string[]) => (await execa('tmux', ['-L', socket, ...args], { timeout: 10_000 })).stdout;
const screen = (target: string) => tmux('capture-pane', '-p', '-t', target);
const press = async (target: string, ...keys: string[]) => {
  // One key per send-keys: the way a person types, so each is a keypress of its own.
  for (const k of keys) await tmux('send-keys', '-t', target, k);
};
const waitForScreen = (target: string, text: string | RegExp, timeoutMs = 15_000) =>
  waitFor(
    async () => {
      const s = await screen(target);
      return (typeof text === 'string' ? s.includes(text) : text.test(s)) ? s : false;
    },
    timeoutMs,
    { what: `${String(text)} in pane ${target}` },
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await screen(target).catch(() => '')}`);
  });

/** Starts tower in a new session of `columns` × `rows`; returns its pane id. */
async function startTower(name: string, columns: number, rows: number, extra: string[] = []): Promise<string> {
  const flags = [...box.roots.flatMap((r) => ['--root', r]), '--claude-dir', box.claudeDir, '-L', socket, ...extra];
  const env = [
    `HOME=${home}`,
    `XDG_CONFIG_HOME=${path.join(home, 'config')}`,
    `XDG_STATE_HOME=${path.join(home, 'state')}`,
  ];
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  // CI variables would make ink believe it renders to a log; TMUX is unset so attach hands over the terminal.
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${env.map(quote).join(' ')} node ${quote(tower)} ${flags.map(quote).join(' ')}; echo TOWER-EXIT=$?; sleep 100000`;
  // -f /dev/null: the first session starts the server, which must not read anyone's tmux config.
  return tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-P',
    '-F',
    '#{pane_id}',
    '-s',
    name,
    '-x',
    String(columns),
    '-y',
    String(rows),
    command,
  );
}

beforeAll(async () => {
  cli = await buildCli();
  tower = cli.bin;
  box = buildBox();
  home = tempDir('tower-e2e-home-');
}, 60_000);

afterAll(async () => {
  await tmux('kill-server').catch(() => {});
  box?.remove();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  cli?.remove();
});

describe('tower in a real terminal', () => {
  it('shows the runs, follows keys, shows a live change, and q restores the terminal', async () => {
    const pane = await startTower('wide', 120, 40);
    // The whole first frame with data: header, the run, the gates pane and the footer (a capture
    // can catch a big repaint half-written, so wait for all of it).
    const first = await waitForScreen(pane, /tower · \d+ runs[\s\S]*sheets-clone[\s\S]*Gates · [\s\S]*q quit/);
    expect(first).toContain('Activity');
    expect(await tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).toBe('1');

    await press(pane, 'Tab');
    await waitForScreen(pane, '[> Team');
    await press(pane, 'Escape');
    await waitForScreen(pane, '[> Runs');

    await press(pane, '/');
    await tmux('send-keys', '-t', pane, '-l', 'sheets');
    await waitForScreen(pane, /Runs · 1 of \d+/);
    await press(pane, 'Enter');
    await waitForScreen(pane, /> harness\s+sheets-clone/);

    // A live change: the harness fires a new checkpoint; tower shows it without a key.
    const stateDir = path.join(box.project('sheets-clone'), '.papercusp');
    fs.writeFileSync(
      path.join(stateDir, 'checkpoint-e2e-live.md'),
      '# Checkpoint: e2e-live (manual request)\nRequested at: 2026-03-01T12:00:00Z\nBy: e2e\n',
    );
    await waitForScreen(pane, 'e2e-live');

    await press(pane, '?');
    await waitForScreen(pane, 'Keys (more');
    // The help is longer than 40 rows: End scrolls to its last row.
    await press(pane, 'End');
    await waitForScreen(pane, 'force-quit:');
    await press(pane, 'Escape');
    await waitFor(async () => !(await screen(pane)).includes('force-quit:'), 10_000, { what: 'help closed' });

    await press(pane, 'q');
    await waitForScreen(pane, 'TOWER-EXIT=0');
    expect(await tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).toBe('0');
    expect(await tmux('display-message', '-p', '-t', pane, '#{cursor_flag}')).toBe('1');
  }, 60_000);

  it('at 80×24 without colour: every line fits, no colour at all, and SIGTERM restores the terminal', async () => {
    const pane = await startTower('narrow', 80, 24, ['--no-color']);
    const s = await waitForScreen(pane, /Runs · [\s\S]*│ \[?Gates[\s\S]*q quit/);
    for (const line of s.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    // -e keeps the cells' attributes: with --no-color there must be none beyond the default.
    const styled = await tmux('capture-pane', '-p', '-e', '-t', pane);
    expect(styled).not.toMatch(/\u001b\[[0-9;]*[1-9][0-9;]*m/);

    const shell = await tmux('display-message', '-p', '-t', pane, '#{pane_pid}');
    const node = (await execa('pgrep', ['-P', shell, 'node'])).stdout.trim().split('\n')[0] ?? '';
    expect(node).toMatch(/^\d+$/);
    process.kill(Number(node), 'SIGTERM');
    await waitForScreen(pane, 'TOWER-EXIT=143');
    expect(await tmux('display-message', '-p', '-t', pane, '#{alternate_on}')).toBe('0');
  }, 60_000);

  it('refuses without a terminal on stdout', async () => {
    const r = await execa('node', [tower, '--root', box.dir], {
      reject: false,
      stdin: 'ignore',
      env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') },
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('tower: the control room needs a terminal (stdout is not a TTY); try `tower status`');
    expect(r.stdout).toBe('');
  }, 30_000);
});
