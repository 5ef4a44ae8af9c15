/**
 * Two build boxes on one screen: the real tower in a private tmux server, reading two boxes over
 * real ssh (private sshd instances); a file written on a box shows on the screen, and attach opens
 * the member's pane on that box's own tmux server through `ssh -t`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { makeRemoteBox } from '../helpers/remote-box.js';
import type { SshLab } from '../helpers/sshd.js';
import { startSshLab } from '../helpers/sshd.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const socket = uniqueSocketName('tower-e2e-hosts');
const unique = socket.replace(/^tower-e2e-hosts-/, '');
let cli: BuiltCli;
let lab: SshLab;
let dir: string;
let home: string;
let boxA: RemoteBox;
let boxB: RemoteBox;

const tmuxOn = async (sock: string, ...args: string[]) =>
  (await execa('tmux', ['-L', sock, ...args], { timeout: 10_000 })).stdout;
const tmux = (...args: string[]) => tmuxOn(socket, ...args);
const screen = () => tmux('capture-pane', '-p', '-t', 'tower');
const waitForScreen = (text: string | RegExp, timeoutMs = 20_000) =>
  waitFor(
    async () => {
      const s = await screen();
      return (typeof text === 'string' ? s.includes(text) : text.test(s)) ? s : false;
    },
    timeoutMs,
    { intervalMs: 25, what: String(text) },
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}\n${await screen().catch(() => '')}`);
  });

beforeAll(async () => {
  cli = await buildCli();
  lab = await startSshLab(['box-a', 'box-b']);
  dir = tempDir('tower-e2e-hosts-');
  home = path.join(dir, 'local');
  boxA = makeRemoteBox(dir, 'a', 'alpha', cli.bin, unique);
  boxB = makeRemoteBox(dir, 'b', 'beta', cli.bin, unique);
  // Box a's own tmux server, with one agent pane that a team on that box names as its lead.
  await tmuxOn(
    boxA.socketName,
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    'agents',
    // In the project its team works in: a pane elsewhere is another agent's.
    '-c',
    boxA.root,
    '-x',
    '100',
    '-y',
    '20',
    "printf 'PANE-ON-BOX-A\\n'; exec sleep 100000",
  );
  const pane = (await tmuxOn(boxA.socketName, 'display-message', '-p', '-t', 'agents', '#{pane_id}')).trim();
  writeFile(path.join(boxA.claudeDir, 'teams', 'crew', 'config.json'), {
    name: 'crew',
    leadAgentId: 'lead',
    members: [
      {
        name: 'lead',
        agentId: 'lead',
        agentType: 'team-lead',
        model: 'claude-opus-4',
        tmuxPaneId: pane,
        cwd: boxA.root,
      },
    ],
  });
  writeFile(path.join(home, 'config.json'), {
    local: false,
    hosts: [
      { name: 'a', destination: 'box-a', sshArgs: ['-F', lab.sshConfig], tower: boxA.tower },
      { name: 'b', destination: 'box-b', sshArgs: ['-F', lab.sshConfig], tower: boxB.tower },
    ],
  });
  const vars = [
    `HOME=${home}`,
    `XDG_STATE_HOME=${home}/state`,
    `XDG_CONFIG_HOME=${home}/xdg`,
    `CLAUDE_CONFIG_DIR=${home}/claude`,
  ];
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars.join(' ')} ${process.execPath} ${cli.bin} --config ${home}/config.json -L ${socket}; echo TOWER-EXIT=$?; sleep 100000`;
  await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'tower', '-x', '120', '-y', '40', command);
}, 60_000);

afterAll(async () => {
  await tmux('kill-server').catch(() => {});
  if (boxA) await tmuxOn(boxA.socketName, 'kill-server').catch(() => {});
  lab?.remove();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('two boxes on one screen', () => {
  it('shows both boxes with their hosts, and a file written on a box reaches the screen', async () => {
    const first = await waitForScreen(/HOST[\s\S]*(?:alpha[\s\S]*beta|beta[\s\S]*alpha)/);
    expect(first).toMatch(/ a +harness +alpha/);
    expect(first).toMatch(/ b +harness +beta +waiting +CHK 1/);
    boxB.openCheckpoint('hotfix');
    await waitForScreen(/ b +harness +beta +waiting +CHK 2/, 10_000);
  });

  it('attaches to a member pane on its box over ssh -t and comes back on detach', async () => {
    await waitForScreen(/ a +claude +crew/);
    for (const k of ['/', 'c', 'r', 'e', 'w', 'Enter']) await tmux('send-keys', '-t', 'tower', k);
    await waitForScreen('filter: crew');
    await tmux('send-keys', '-t', 'tower', 'a');
    await waitForScreen('PANE-ON-BOX-A');
    // Detach the box's tmux client (its prefix is C-b): ssh ends and the control room comes back.
    await tmux('send-keys', '-t', 'tower', 'C-b', 'd');
    await waitForScreen(/back from %\d+ on a/);
    const audit = fs
      .readFileSync(path.join(home, 'state', 'tower', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ action: 'attach', run: 'a/claude-team:crew', outcome: 'done', remote: 'a' });
    // The keys are ours again.
    await tmux('send-keys', '-t', 'tower', 'q');
    await waitForScreen('TOWER-EXIT=0');
  });
});
