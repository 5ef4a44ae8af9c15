/**
 * A box's sshd killed while an answer crosses to it, over real ssh (a private sshd): the answer is
 * done on the box or reported not done, never both, never twice. The agent on the box kills the
 * sshd itself (its listener, the connection and the box's `tower serve` under it) the instant the
 * answer's key reaches it, before it draws anything: the box's tower has typed, and cannot have
 * seen the dialog go, whatever the load. That sshd is started again and the control room's link
 * comes back; nothing is typed a second time. And with the sshd down for the whole answer, the
 * answer is refused and nothing reaches the agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from '../helpers/box.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { agentPane, startFleet, tmuxOn, writeCrew } from '../helpers/ssh-fleet.js';
import type { Fleet } from '../helpers/ssh-fleet.js';
import { descendants } from '../helpers/sshd.js';
import type { SshBox } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait-for.js';

const AGENT = fileURLToPath(new URL('../fixtures/agents/asking-agent.mjs', import.meta.url));
let fleet: Fleet;
let box: RemoteBox;
let sshd: SshBox;
let pane: string;
/** Each line the agent read, one a line. */
let typed: string;
/** The pid the agent kills (with everything under it) when it takes an answer. */
let killFile: string;

const agentScreen = () => tmuxOn(box.socketName, 'capture-pane', '-p', '-t', pane);
const auditFile = () => path.join(fleet.home, 'state', 'tower', 'audit.jsonl');
const answersEnded = () => (endings(auditFile()) || []).filter((l) => l.action === 'answer');
const linesTyped = () => (fs.existsSync(typed) ? fs.readFileSync(typed, 'utf8').split('\n').filter(Boolean) : []);

/** The audit lines of a log that say how an action ended (a line caught half written is read again). */
function endings(file: string): Record<string, unknown>[] | false {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.outcome !== 'begun');
  } catch {
    return false;
  }
}

/** Waits until the killed sshd has exited, then starts it again. */
async function restart(): Promise<void> {
  const child = sshd.child;
  if (child) {
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, 10_000, { what: 'the sshd to exit' });
    sshd.child = null;
  }
  await sshd.start();
}

beforeAll(async () => {
  fleet = await startFleet('tower-chaos-ssh', { q: 'quay' });
  box = fleet.boxes.q!;
  sshd = fleet.lab.box('box-q');
  typed = path.join(fleet.dir, 'typed.txt');
  killFile = path.join(fleet.dir, 'kill-on-answer.pid');
  writeFile(path.join(fleet.dir, 'box-q', 'config', 'tower', 'config.json'), { pollIntervalMs: 500 });
  pane = await agentPane(box.socketName, box.root, `node ${AGENT} --log ${typed} --kill-on-answer ${killFile}`);
  await waitFor(async () => (await agentScreen()).includes('Do you want to proceed?'), 10_000, { what: 'the prompt' });
  writeCrew(box.claudeDir, box.root, [{ name: 'lead', pane, joinedAt: Date.now() }], Date.now());
  writeFile(path.join(fleet.home, 'config.json'), {
    local: false,
    hosts: [fleet.host(box)],
    notify: { bell: false, desktop: false, title: false },
  });
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
});

describe("a box's sshd killed during an answer", () => {
  it('with the sshd down for the whole answer, refuses it and types nothing', async () => {
    sshd.kill();
    const home = fleet.home;
    const before = answersEnded().length;
    const r = await execa(
      process.execPath,
      [fleet.cli.bin, 'answer', 'q/claude-team:crew', '--member', 'lead', '1', '--config', `${home}/config.json`],
      {
        reject: false,
        env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
        stdin: 'ignore',
        timeout: 30_000,
      },
    );
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(/refused: q is unreachable: nothing accepts ssh connections at box-q/);
    expect(String(r.stdout)).toBe('');
    expect(linesTyped()).toEqual([]);
    expect(await agentScreen()).toContain('Do you want to proceed?');
    expect(answersEnded().slice(before)).toEqual([
      expect.objectContaining({ action: 'answer', outcome: 'refused', remote: 'q' }),
    ]);
  }, 40_000);

  it('killed as the key lands: reported not known (never failed), typed once, not again after the link is back', async () => {
    if (!sshd.child) await restart();
    const before = answersEnded().length;
    const room = await fleet.controlRoom();
    await room.waitForScreen(/ q +claude +crew[^\n]*waiting/, 30_000);
    await room.press('/', 'c', 'r', 'e', 'w', 'Enter');
    await room.waitForScreen('filter: crew');
    await room.press('1');
    await room.waitForScreen(/on q \(box-q\)/);
    // Armed only now: the agent kills this sshd (and the box's tower under it) when the key arrives.
    fs.writeFileSync(killFile, `${sshd.child!.pid}\n`);
    await room.press('y');

    const answered = await waitFor(
      () => {
        const ended = answersEnded();
        return ended.length > before ? ended.at(-1)! : false;
      },
      30_000,
      { what: 'the answer to end in the audit log' },
    );
    // The key reached the agent: the answer was done on the box, so it must not be reported failed.
    expect(linesTyped()).toEqual(['1']);
    expect(answered).toMatchObject({ action: 'answer', run: 'q/claude-team:crew', outcome: 'timeout', remote: 'q' });
    expect(String(answered.message)).toMatch(
      /^not known whether answer was done on q: it was sent, then the connection was lost before it said how it went \(.+\); look there/,
    );
    await room.waitForScreen(/timeout answer · not known whether/);
    // The box's own log: its tower began the answer once and was killed before it could say more.
    const boxLog = fs.readFileSync(path.join(box.xdgState, 'tower', 'audit.jsonl'), 'utf8');
    expect(boxLog.split('\n').filter((l) => l.includes('"action":"answer"'))).toEqual([
      expect.stringContaining('"outcome":"begun"'),
    ]);

    fs.rmSync(killFile);
    await restart();
    // The link comes back: a new `tower serve` under the new sshd, and the preview streams the pane again.
    const newSshd = sshd.child!.pid!;
    await waitFor(
      () =>
        descendants(newSshd).some((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('serve\0--stdio');
          } catch {
            return false;
          }
        }),
      30_000,
      { what: "the box's tower serving again" },
    );
    await room.waitForScreen('allowed: deploying', 30_000);
    // Nothing typed again after the reconnect, and no second answer on either side.
    expect(linesTyped()).toEqual(['1']);
    expect(answersEnded()).toHaveLength(before + 1);
    await room.press('q');
    await room.waitForScreen('TOWER-EXIT=0');
  }, 90_000);
});
