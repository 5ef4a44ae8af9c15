/**
 * A real agent CLI's pane on a "box" reached over ssh: the pane runs on its own tmux server (`-S`)
 * on this machine, a private sshd answers as the box, and the box's `tower serve` reads that
 * server with its own home, state and config. The team `crew` names the pane as its one member;
 * this side's config names the box as host `x`. `tower(...)` runs the built CLI on this side.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import type { Member, Snapshot } from '../../src/model/model.js';
import { writeFile } from './box.js';
import type { BuiltCli } from './built-cli.js';
import { writeCrew } from './ssh-fleet.js';
import type { SshLab } from './sshd.js';
import { waitFor } from './wait-for.js';

/** The run of the crew as this side names it. */
export const CREW_RUN = 'x/claude-team:crew';

export interface CliBox {
  /** The box's $XDG_STATE_HOME (its audit log is under tower/). */
  boxState: string;
  /** Runs the built tower on this side with the config naming box x. */
  tower(...args: string[]): ReturnType<typeof execa>;
  /** The crew's member as `tower status --json` shows it, once it satisfies `want`. */
  memberWhen(want: (m: Member) => boolean, what: string, timeoutMs?: number): Promise<Member>;
}

/** Lays out box x under `dir` for a CLI whose pane is `paneId` on the tmux server at `socketPath`, in `project`. */
export function cliBox(
  cli: BuiltCli,
  lab: SshLab,
  dir: string,
  pane: { project: string; socketPath: string; paneId: string; member: string },
): CliBox {
  const home = path.join(dir, 'local');
  const base = path.join(dir, 'box-x');
  const claudeDir = path.join(base, 'claude');
  const boxState = path.join(base, 'state');
  fs.mkdirSync(claudeDir, { recursive: true });
  // The box polls its panes every half second, so the test waits less.
  writeFile(path.join(base, 'config', 'tower', 'config.json'), { pollIntervalMs: 500 });
  writeCrew(claudeDir, pane.project, [{ name: pane.member, pane: pane.paneId, joinedAt: Date.now() }], Date.now());
  const env = [
    `HOME=${base}`,
    `XDG_STATE_HOME=${boxState}`,
    `XDG_CONFIG_HOME=${path.join(base, 'config')}`,
    `CLAUDE_CONFIG_DIR=${claudeDir}`,
  ];
  const boxTower = `${env.join(' ')} ${process.execPath} ${cli.bin} --root ${pane.project} --claude-dir ${claudeDir} -S ${pane.socketPath}`;
  writeFile(path.join(home, 'config.json'), {
    local: false,
    hosts: [{ name: 'x', destination: 'box-x', sshArgs: ['-F', lab.sshConfig], tower: boxTower }],
  });
  const tower = (...args: string[]) =>
    execa(process.execPath, [cli.bin, ...args, '--config', `${home}/config.json`], {
      reject: false,
      env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
      stdin: 'ignore',
      timeout: 40_000,
    });
  const memberWhen = (want: (m: Member) => boolean, what: string, timeoutMs = 60_000) =>
    waitFor(
      async () => {
        const r = await tower('status', '--json');
        const snap = JSON.parse(String(r.stdout)) as Snapshot;
        const m = snap.runs.find((x) => x.id === CREW_RUN)?.members[0];
        return m && want(m) ? m : false;
      },
      timeoutMs,
      { what, intervalMs: 250 },
    );
  return { boxState, tower, memberWhen };
}
