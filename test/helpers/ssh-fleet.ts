/**
 * Build boxes over real ssh, as the tests of tower across boxes set them up: the built CLI, a
 * private sshd (sshd.ts) with one box each (remote-box.ts, its `tower serve` command line), all under
 * one temp dir; an agent pane on a box's own tmux server with the team `crew` naming it; and this
 * box's control room in a private tmux server, read from its screen. `stop()` removes all of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { tempDir, writeFile } from './box.js';
import { buildCli } from './built-cli.js';
import type { BuiltCli } from './built-cli.js';
import { makeRemoteBox } from './remote-box.js';
import type { RemoteBox } from './remote-box.js';
import { startSshLab } from './sshd.js';
import type { SshLab } from './sshd.js';
import { uniqueSocketName } from './tmux.js';
import { waitFor } from './wait-for.js';

/** Runs tmux on the server `socket` (`-L`); its stdout. */
export async function tmuxOn(socket: string, ...args: string[]): Promise<string> {
  return (await execa('tmux', ['-L', socket, ...args], { timeout: 10_000 })).stdout;
}

/** Starts session `agents` (100×20, in `cwd`) on the server `socket` running `command`; its pane id. */
export async function agentPane(socket: string, cwd: string, command: string): Promise<string> {
  const args = ['-f', '/dev/null', 'new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'agents'];
  return (await tmuxOn(socket, ...args, '-x', '100', '-y', '20', '-c', cwd, command)).trim();
}

/** A member of the team `crew`: the first one written leads. */
export interface CrewMember {
  name: string;
  pane: string;
  /** When it joined (ms), as Claude Code writes it: a member that joined after its pane started owns it. */
  joinedAt?: number;
}

/** Writes `<claudeDir>/teams/crew/config.json` as Claude Code does, its members in `cwd`. */
export function writeCrew(claudeDir: string, cwd: string, members: CrewMember[], createdAt?: number): void {
  writeFile(path.join(claudeDir, 'teams', 'crew', 'config.json'), {
    name: 'crew',
    ...(createdAt === undefined ? {} : { createdAt }),
    leadAgentId: members[0]?.name,
    members: members.map((m, i) => ({
      name: m.name,
      agentId: m.name,
      agentType: i === 0 ? 'team-lead' : 'worker',
      model: 'claude-opus-4',
      tmuxPaneId: m.pane,
      cwd,
      ...(m.joinedAt === undefined ? {} : { joinedAt: m.joinedAt }),
    })),
  });
}

/** This box's tower in a private tmux server (session `tower`, 120×40), read from its screen. */
export interface ControlRoom {
  /** Runs tmux on the control room's server. */
  tmux(...args: string[]): Promise<string>;
  screen(): Promise<string>;
  /** Waits until the screen holds `text`; the screen (it is printed when the wait fails). */
  waitForScreen(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Presses keys (tmux key names) one after the other. */
  press(...keys: string[]): Promise<void>;
  /** The audit log of this box's tower, one object a line. */
  audit(): Record<string, unknown>[];
}

export interface Fleet {
  cli: BuiltCli;
  lab: SshLab;
  /** The temp dir holding the boxes and this box's home. */
  dir: string;
  /** This box's HOME (its config.json, state/, xdg/, claude/). */
  home: string;
  /** The boxes, by their short name (`q` is reached as `box-q`). */
  boxes: Record<string, RemoteBox>;
  /** The `hosts` entry of this box's config that reaches a box through the lab's ssh config. */
  host(box: RemoteBox): { name: string; destination: string; sshArgs: string[]; tower: string };
  /** Starts tower in its control room with `home/config.json` (written first when given). */
  /** Starts this box's tower (`bin`: another build's launcher, default the one built here). */
  controlRoom(config?: object, bin?: string): Promise<ControlRoom>;
  /** Stops the control room and every box's tmux server, the sshd, and removes the files. */
  stop(): Promise<void>;
}

/**
 * Starts the fleet: `boxes` maps a box's short name to its project's name; `moreSshHosts` are
 * further names the sshd answers to (a test's own far side).
 */
export async function startFleet(
  prefix: string,
  boxes: Record<string, string>,
  moreSshHosts: string[] = [],
): Promise<Fleet> {
  const socket = uniqueSocketName(prefix);
  const unique = socket.slice(prefix.length + 1);
  const cli = await buildCli();
  const lab = await startSshLab([...Object.keys(boxes).map((b) => `box-${b}`), ...moreSshHosts]);
  const dir = tempDir(`${prefix}-`);
  const home = path.join(dir, 'local');
  const made: Record<string, RemoteBox> = {};
  for (const [name, project] of Object.entries(boxes)) made[name] = makeRemoteBox(dir, name, project, cli.bin, unique);
  let roomStarted = false;

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
  const room: ControlRoom = {
    tmux,
    screen,
    waitForScreen,
    press: async (...keys) => {
      for (const k of keys) await tmux('send-keys', '-t', 'tower', k);
    },
    audit: () =>
      fs
        .readFileSync(path.join(home, 'state', 'tower', 'audit.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.outcome !== 'begun'),
  };

  return {
    cli,
    lab,
    dir,
    home,
    boxes: made,
    host: (box) => ({
      name: box.name,
      destination: `box-${box.name}`,
      sshArgs: ['-F', lab.sshConfig],
      tower: box.tower,
    }),
    controlRoom: async (config, bin = cli.bin) => {
      if (config) writeFile(path.join(home, 'config.json'), config);
      const vars = [
        `HOME=${home}`,
        `XDG_STATE_HOME=${home}/state`,
        `XDG_CONFIG_HOME=${home}/xdg`,
        `CLAUDE_CONFIG_DIR=${home}/claude`,
      ];
      const command = `env -u CI -u CONTINUOUS_INTEGRATION -u TMUX ${vars.join(' ')} ${process.execPath} ${bin} --config ${home}/config.json -L ${socket}; echo TOWER-EXIT=$?; sleep 100000`;
      roomStarted = true;
      await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'tower', '-x', '120', '-y', '40', command);
      return room;
    },
    stop: async () => {
      if (roomStarted) await tmux('kill-server').catch(() => {});
      for (const box of Object.values(made)) await tmuxOn(box.socketName, 'kill-server').catch(() => {});
      lab.remove();
      cli.remove();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
