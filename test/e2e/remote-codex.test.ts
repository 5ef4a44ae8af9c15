/**
 * The real Codex CLI on a build box, seen and answered from this box over real ssh (a private sshd
 * on 127.0.0.1): the box's `tower serve` reads the Codex pane on its tmux server, and this side's
 * `tower status --json` shows the member with `agent: "codex"`, waiting at its dialog with the real
 * command; `tower answer … 1` approves it through the box's tower, which the Responses API stand-in
 * sees as the command's output in the next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { CREW_RUN, cliBox, type CliBox } from '../helpers/cli-box.js';
import { startCodex, type CodexRun } from '../helpers/codex-cli/launch.js';
import { lastCallOutput } from '../helpers/codex-cli/responses-api.js';
import { DIALOG_QUESTION, afterRunTurn, escalationTurn, say } from '../helpers/codex-cli/scenarios.js';
import { startSshLab } from '../helpers/sshd.js';
import type { SshLab } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait-for.js';

let cli: BuiltCli;
let lab: SshLab;
let codex: CodexRun;
let dir: string;
let box: CliBox;

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
  box = cliBox(cli, lab, dir, { ...codex, member: 'coder' });
}, 120_000);

afterAll(async () => {
  lab?.remove();
  await codex?.stop();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the real Codex CLI on another box', () => {
  it('shows as codex, asking with the real command, and tower answer 1 approves it over ssh', async () => {
    const idle = await box.memberWhen((m) => m.activity === 'waiting' && !m.prompt, 'the coder waiting at its box');
    expect(idle).toMatchObject({ agent: 'codex', activitySource: 'screen', activityCue: 'prompt' });

    await say(codex, 'make the file');
    await codex.waitForScreen(DIALOG_QUESTION, 60_000);
    const asking = await box.memberWhen((m) => m.prompt !== undefined, 'the dialog in status --json');
    expect(asking).toMatchObject({ agent: 'codex', activity: 'waiting', activityCue: 'question' });
    expect(asking.prompt?.question).toBe(DIALOG_QUESTION);
    expect(asking.prompt?.subject).toEqual([
      'Environment: local',
      'Reason: Create remote.txt outside the sandbox?',
      '$ touch remote.txt',
    ]);

    const before = codex.api.requests.length;
    const answered = await box.tower('answer', CREW_RUN, '--member', 'coder', '1');
    expect(answered.exitCode, `${String(answered.stdout)}\n${String(answered.stderr)}`).toBe(0);
    expect(answered.stdout).toContain('answered 1');
    await waitFor(
      () => codex.api.requests.slice(before).some((r) => (lastCallOutput(r) ?? '').includes('exited with code 0')),
      30_000,
      { what: 'the approved command output sent to the model' },
    );
    expect(fs.existsSync(path.join(codex.project, 'remote.txt'))).toBe(true);
    // Audited on the box's side, as an action run there for this tower.
    const audit = fs.readFileSync(path.join(box.boxState, 'tower', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"action":"answer"[^\n]*"outcome":"done"/);
  }, 150_000);
});
