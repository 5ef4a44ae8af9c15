/**
 * The real Codex CLI on a build box, seen and answered from this box over real ssh (a private sshd
 * on 127.0.0.1): the box's `tower serve` reads the Codex pane on its tmux server, and this side's
 * `tower status --json` shows the member with `agent: "codex"`, waiting at its dialog with the real
 * command; `tower answer … 1` approves it through the box's tower, which the Responses API stand-in
 * sees as the command's output in the next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, Snapshot } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { startCodex, type CodexRun } from '../helpers/codex-cli/launch.js';
import { lastCallOutput } from '../helpers/codex-cli/responses-api.js';
import { DIALOG_QUESTION, afterRunTurn, escalationTurn, say } from '../helpers/codex-cli/scenarios.js';
import { writeCrew } from '../helpers/ssh-fleet.js';
import { startSshLab } from '../helpers/sshd.js';
import type { SshLab } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait-for.js';

let cli: BuiltCli;
let lab: SshLab;
let codex: CodexRun;
let dir: string;
let home: string;
const RUN = 'x/claude-team:crew';

/** A tower command on this box, over the config naming box x. */
function tower(...args: string[]) {
  return execa(process.execPath, [cli.bin, ...args, '--config', `${home}/config.json`], {
    reject: false,
    env: { HOME: home, XDG_STATE_HOME: `${home}/state`, XDG_CONFIG_HOME: `${home}/xdg`, TMUX: '' },
    stdin: 'ignore',
    timeout: 40_000,
  });
}

/** The Codex member as `tower status --json` shows it, once it satisfies `want`. */
function coderWhen(want: (m: Member) => boolean, what: string): Promise<Member> {
  return waitFor(
    async () => {
      const r = await tower('status', '--json');
      const snap = JSON.parse(String(r.stdout)) as Snapshot;
      const m = snap.runs.find((x) => x.id === RUN)?.members[0];
      return m && want(m) ? m : false;
    },
    60_000,
    { what, intervalMs: 250 },
  );
}

beforeAll(async () => {
  [cli, codex, lab] = await Promise.all([
    buildCli(),
    startCodex({
      columns: 100,
      rows: 40,
      script: [
        escalationTurn('make the file', 'touch remote.txt', 'Create remote.txt outside the sandbox?'),
        afterRunTurn('make the file', 'Created remote.txt.'),
      ],
    }),
    startSshLab(['box-x']),
  ]);
  await codex.ready();
  dir = tempDir('tower-e2e-codex-');
  home = path.join(dir, 'local');
  // Box x: its own home, state and config; its tower reads the Codex pane's tmux server.
  const base = path.join(dir, 'box-x');
  const claudeDir = path.join(base, 'claude');
  fs.mkdirSync(claudeDir, { recursive: true });
  writeFile(path.join(base, 'config', 'tower', 'config.json'), { pollIntervalMs: 500 });
  writeCrew(claudeDir, codex.project, [{ name: 'coder', pane: codex.paneId, joinedAt: Date.now() }], Date.now());
  const env = [
    `HOME=${base}`,
    `XDG_STATE_HOME=${path.join(base, 'state')}`,
    `XDG_CONFIG_HOME=${path.join(base, 'config')}`,
    `CLAUDE_CONFIG_DIR=${claudeDir}`,
  ];
  writeFile(path.join(home, 'config.json'), {
    local: false,
    hosts: [
      {
        name: 'x',
        destination: 'box-x',
        sshArgs: ['-F', lab.sshConfig],
        tower: `${env.join(' ')} ${process.execPath} ${cli.bin} --root ${codex.project} --claude-dir ${claudeDir} -S ${codex.socketPath}`,
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  lab?.remove();
  await codex?.stop();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the real Codex CLI on another box', () => {
  it('shows as codex, asking with the real command, and tower answer 1 approves it over ssh', async () => {
    const idle = await coderWhen((m) => m.activity === 'waiting' && !m.prompt, 'the coder waiting at its box');
    expect(idle).toMatchObject({ agent: 'codex', activitySource: 'screen', activityCue: 'prompt' });

    await say(codex, 'make the file');
    await codex.waitForScreen(DIALOG_QUESTION, 60_000);
    const asking = await coderWhen((m) => m.prompt !== undefined, 'the dialog in status --json');
    expect(asking).toMatchObject({ agent: 'codex', activity: 'waiting', activityCue: 'question' });
    expect(asking.prompt?.question).toBe(DIALOG_QUESTION);
    expect(asking.prompt?.subject).toEqual([
      'Environment: local',
      'Reason: Create remote.txt outside the sandbox?',
      '$ touch remote.txt',
    ]);

    const before = codex.api.requests.length;
    const answered = await tower('answer', RUN, '--member', 'coder', '1');
    expect(answered.exitCode, `${answered.stdout}\n${answered.stderr}`).toBe(0);
    expect(answered.stdout).toContain('answered 1');
    await waitFor(
      () => codex.api.requests.slice(before).some((r) => (lastCallOutput(r) ?? '').includes('exited with code 0')),
      30_000,
      { what: 'the approved command output sent to the model' },
    );
    expect(fs.existsSync(path.join(codex.project, 'remote.txt'))).toBe(true);
    // Audited on the box's side, as an action run there for this tower.
    const audit = fs.readFileSync(path.join(dir, 'box-x', 'state', 'tower', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"action":"answer"[^\n]*"outcome":"done"/);
  }, 150_000);
});
