/**
 * An agent on a build box at a permission prompt, seen from this box over real ssh (a private sshd):
 * `status --json` says it waits at the prompt, the fleet screen shows it asking, the notify command
 * runs for it, a line sent to it is refused by the box's tower (its pane read right before typing),
 * and `1` on the screen answers it, the box's tower re-checking the prompt and typing;
 * the preview shows the agent's pane as the box streams it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/model/model.js';
import { writeFile } from '../helpers/box.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { agentPane, startFleet, tmuxOn, writeCrew } from '../helpers/ssh-fleet.js';
import type { Fleet } from '../helpers/ssh-fleet.js';
import { waitFor } from '../helpers/wait-for.js';

const AGENT = fileURLToPath(new URL('../fixtures/agents/asking-agent.mjs', import.meta.url));
let fleet: Fleet;
let home: string;
let box: RemoteBox;
let pane: string;
let notified: string;

const agentScreen = () => tmuxOn(box.socketName, 'capture-pane', '-p', '-t', pane);

beforeAll(async () => {
  fleet = await startFleet('tower-e2e-asking', { q: 'quay' });
  home = fleet.home;
  box = fleet.boxes.q!;
  // The box polls its panes every half second (its own config), so the test waits less.
  writeFile(path.join(fleet.dir, 'box-q', 'config', 'tower', 'config.json'), { pollIntervalMs: 500 });
  pane = await agentPane(box.socketName, box.root, `node ${AGENT}`);
  await waitFor(async () => (await agentScreen()).includes('Do you want to proceed?'), 10_000, { what: 'the prompt' });
  notified = path.join(home, 'notified.txt');
  writeFile(path.join(home, 'config.json'), {
    local: false,
    hosts: [fleet.host(box)],
    notify: {
      bell: false,
      desktop: false,
      title: false,
      command: `echo "$TOWER_EVENT $TOWER_RUN $TOWER_HOST" >> ${notified}`,
    },
  });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
});

describe('an agent asking on another box', () => {
  it('shows asking on the fleet screen, notifies, is answered with 1, and status --json says what it asked', async () => {
    const room = await fleet.controlRoom();
    const { tmux, waitForScreen } = room;
    await waitForScreen(/ q +harness +quay/);
    // The team on the box whose lead is the asking agent's pane, written once the screen is up (news,
    // not history); the lead joined after its pane started, so the pane is its own.
    writeCrew(box.claudeDir, box.root, [{ name: 'lead', pane, joinedAt: Date.now() }], Date.now());

    // status --json over the same ssh: the member waits at the prompt, read from its screen on the box.
    const status = await waitFor(
      async () => {
        const r = await execa(
          process.execPath,
          [fleet.cli.bin, 'status', '--json', '--config', `${home}/config.json`],
          {
            reject: false,
            env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
            stdin: 'ignore',
            timeout: 30_000,
          },
        );
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
    // A line sent while it asks: the box's tower reads the pane right before typing, and refuses.
    const early = await execa(
      process.execPath,
      [
        fleet.cli.bin,
        'send',
        'q/claude-team:crew',
        '--member',
        'lead',
        'hello early',
        '--config',
        `${home}/config.json`,
      ],
      {
        reject: false,
        env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
        stdin: 'ignore',
        timeout: 30_000,
      },
    );
    expect(early.exitCode).toBe(1);
    expect(String(early.stderr)).toMatch(/shows a prompt \(Do you want to proceed\?.*the line was not typed/);
    expect(await agentScreen()).not.toContain('hello early');

    // The fleet screen: the run of box q, its lead asking.
    const shown = await waitForScreen(/ q +claude +crew[^\n]*waiting/);
    expect(shown).toMatch(/ q +claude +crew/);
    // The notify command ran for it, naming the box.
    await waitFor(() => fs.existsSync(notified) && fs.readFileSync(notified, 'utf8'), 10_000, {
      what: 'the notify command',
    });
    expect(fs.readFileSync(notified, 'utf8')).toContain('member-waiting q/claude-team:crew q');

    await room.press('/', 'c', 'r', 'e', 'w', 'Enter');
    await waitForScreen('filter: crew');
    await room.press('1');
    // The box's plan, in the confirm dialog: its title names the box.
    await waitForScreen(/on q \(box-q\)/);
    await room.press('y');
    await waitFor(async () => (await agentScreen()).includes('allowed: deploying'), 20_000, {
      what: 'the agent on the box to take the answer',
    });
    await waitForScreen(/answered 1 \(Yes\) to lead/);
    // The preview shows the lead's pane as box q streams it: what the agent printed on taking the answer.
    const preview = await waitForScreen('allowed: deploying');
    expect(preview).toMatch(/Preview · lead %\d+ on q/);
    expect(room.audit().at(-1)).toMatchObject({
      action: 'answer',
      run: 'q/claude-team:crew',
      outcome: 'done',
      remote: 'q',
    });

    // `s` types a line into the remote agent's pane, through the box's tower; the preview shows its reply.
    await room.press('s');
    await waitForScreen(/send/i);
    await tmux('send-keys', '-t', 'tower', '-l', 'hello box');
    await room.press('Enter');
    await waitForScreen(/Send a line[^\n]*on q \(box-q\)/);
    await room.press('y');
    await waitFor(async () => (await agentScreen()).includes('got: hello box'), 20_000, {
      what: 'the line typed on the box',
    });
    await waitForScreen('got: hello box');
    await room.press('q');
    await waitForScreen('TOWER-EXIT=0');
  }, 90_000);
});
