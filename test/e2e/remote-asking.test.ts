/**
 * An agent on a build box at a permission prompt, seen from this box over real ssh (a private sshd):
 * `status --json` says it waits at the prompt, the fleet screen shows it asking, the notify command
 * runs for it, and `1` on the screen answers it, the box's tower re-checking the prompt and typing;
 * the preview shows the agent's pane as the box streams it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { makeRemoteBox } from '../helpers/remote-box.js';
import type { SshLab } from '../helpers/sshd.js';
import { startSshLab } from '../helpers/sshd.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const AGENT = fileURLToPath(new URL('../fixtures/agents/asking-agent.mjs', import.meta.url));
const socket = uniqueSocketName('tower-e2e-asking');
const unique = socket.replace(/^tower-e2e-asking-/, '');
let cli: BuiltCli;
let lab: SshLab;
let dir: string;
let home: string;
let box: RemoteBox;
let pane: string;
let notified: string;

const tmuxOn = async (sock: string, ...args: string[]) =>
  (await execa('tmux', ['-L', sock, ...args], { timeout: 10_000 })).stdout;
const tmux = (...args: string[]) => tmuxOn(socket, ...args);
const screen = () => tmux('capture-pane', '-p', '-t', 'tower');
const agentScreen = () => tmuxOn(box.socketName, 'capture-pane', '-p', '-t', pane);
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

/**
 * The team on the box whose lead is the asking agent's pane (written once the screen is up: news,
 * not history); the lead joined after its pane started, so the pane is its own.
 */
function writeTeam(): void {
  writeFile(path.join(box.claudeDir, 'teams', 'crew', 'config.json'), {
    name: 'crew',
    createdAt: Date.now(),
    leadAgentId: 'lead',
    members: [
      {
        name: 'lead',
        agentId: 'lead',
        agentType: 'team-lead',
        model: 'claude-opus-4',
        tmuxPaneId: pane,
        cwd: box.root,
        joinedAt: Date.now(),
      },
    ],
  });
}

beforeAll(async () => {
  cli = await buildCli();
  lab = await startSshLab(['box-q']);
  dir = tempDir('tower-e2e-asking-');
  home = path.join(dir, 'local');
  box = makeRemoteBox(dir, 'q', 'quay', cli.bin, unique);
  // The box polls its panes every half second (its own config), so the test waits less.
  writeFile(path.join(dir, 'box-q', 'config', 'tower', 'config.json'), { pollIntervalMs: 500 });
  await tmuxOn(
    box.socketName,
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    'agents',
    '-x',
    '100',
    '-y',
    '20',
    '-c',
    box.root,
    `node ${AGENT}`,
  );
  pane = (await tmuxOn(box.socketName, 'display-message', '-p', '-t', 'agents', '#{pane_id}')).trim();
  await waitFor(async () => (await agentScreen()).includes('Do you want to proceed?'), 10_000, { what: 'the prompt' });
  notified = path.join(home, 'notified.txt');
  writeFile(path.join(home, 'config.json'), {
    local: false,
    hosts: [{ name: 'q', destination: 'box-q', sshArgs: ['-F', lab.sshConfig], tower: box.tower }],
    notify: {
      bell: false,
      desktop: false,
      title: false,
      command: `echo "$TOWER_EVENT $TOWER_RUN $TOWER_HOST" >> ${notified}`,
    },
  });
}, 60_000);

afterAll(async () => {
  await tmux('kill-server').catch(() => {});
  if (box) await tmuxOn(box.socketName, 'kill-server').catch(() => {});
  lab?.remove();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('an agent asking on another box', () => {
  it('shows asking on the fleet screen, notifies, is answered with 1, and status --json says what it asked', async () => {
    const vars = [`HOME=${home}`, `XDG_STATE_HOME=${home}/state`, `XDG_CONFIG_HOME=${home}/xdg`];
    const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars.join(' ')} ${process.execPath} ${cli.bin} --config ${home}/config.json -L ${socket}; echo TOWER-EXIT=$?; sleep 100000`;
    await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'tower', '-x', '120', '-y', '40', command);
    await waitForScreen(/ q +harness +quay/);
    writeTeam();

    // status --json over the same ssh: the member waits at the prompt, read from its screen on the box.
    const status = await waitFor(
      async () => {
        const r = await execa(process.execPath, [cli.bin, 'status', '--json', '--config', `${home}/config.json`], {
          reject: false,
          env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
          stdin: 'ignore',
          timeout: 30_000,
        });
        const snap = JSON.parse(String(r.stdout)) as Snapshot;
        const lead = snap.runs.find((x) => x.id === 'q/claude-team:crew')?.members[0];
        return lead?.prompt ? lead : false;
      },
      30_000,
      { what: 'the remote lead with its prompt in status --json', intervalMs: 200 },
    );
    expect(status).toMatchObject({ activity: 'waiting', activitySource: 'screen', activityCue: 'question' });
    expect(status.prompt?.question).toBe('Do you want to proceed?');
    expect(status.prompt?.options[0]).toEqual({ key: '1', label: 'Yes' });

    // The fleet screen: the run of box q, its lead asking.
    const shown = await waitForScreen(/ q +claude +crew[^\n]*waiting/);
    expect(shown).toMatch(/ q +claude +crew/);
    // The notify command ran for it, naming the box.
    await waitFor(() => fs.existsSync(notified) && fs.readFileSync(notified, 'utf8'), 10_000, {
      what: 'the notify command',
    });
    expect(fs.readFileSync(notified, 'utf8')).toContain('member-waiting q/claude-team:crew q');

    for (const k of ['/', 'c', 'r', 'e', 'w', 'Enter']) await tmux('send-keys', '-t', 'tower', k);
    await waitForScreen('filter: crew');
    await tmux('send-keys', '-t', 'tower', '1');
    // The box's plan, in the confirm dialog: its title names the box.
    await waitForScreen(/on q \(box-q\)/);
    await tmux('send-keys', '-t', 'tower', 'y');
    await waitFor(async () => (await agentScreen()).includes('allowed: deploying'), 20_000, {
      what: 'the agent on the box to take the answer',
    });
    await waitForScreen(/answered 1 \(Yes\) to lead/);
    // The preview shows the lead's pane as box q streams it: what the agent printed on taking the answer.
    const preview = await waitForScreen('allowed: deploying');
    expect(preview).toMatch(/Preview · lead %\d+ on q/);
    const audit = fs
      .readFileSync(path.join(home, 'state', 'tower', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ action: 'answer', run: 'q/claude-team:crew', outcome: 'done', remote: 'q' });

    // `s` types a line into the remote agent's pane, through the box's tower; the preview shows its reply.
    await tmux('send-keys', '-t', 'tower', 's');
    await waitForScreen(/send/i);
    await tmux('send-keys', '-t', 'tower', '-l', 'hello box');
    await tmux('send-keys', '-t', 'tower', 'Enter');
    await waitForScreen(/Send a line[^\n]*on q \(box-q\)/);
    await tmux('send-keys', '-t', 'tower', 'y');
    await waitFor(async () => (await agentScreen()).includes('got: hello box'), 20_000, {
      what: 'the line typed on the box',
    });
    await waitForScreen('got: hello box');
    await tmux('send-keys', '-t', 'tower', 'q');
    await waitForScreen('TOWER-EXIT=0');
  }, 90_000);
});
