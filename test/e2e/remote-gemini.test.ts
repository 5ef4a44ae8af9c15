/**
 * The real Gemini CLI on a build box, seen and answered from this box over real ssh (a private sshd
 * on 127.0.0.1), as Codex is (remote-codex.test.ts): `tower status --json` here shows the member
 * with `agent: "gemini-cli"`, asking with the real command; `tower answer … 1` approves it through
 * the box's tower, which the Gemini API stand-in sees as the command's output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { CREW_RUN, cliBox, type CliBox } from '../helpers/cli-box.js';
import { startGemini, type GeminiRun } from '../helpers/gemini-cli/launch.js';
import { functionResponseSeen, shellTurn } from '../helpers/gemini-cli/scenarios.js';
import { startSshLab } from '../helpers/sshd.js';
import type { SshLab } from '../helpers/sshd.js';
import { waitFor } from '../helpers/wait-for.js';

let cli: BuiltCli;
let lab: SshLab;
let gemini: GeminiRun;
let dir: string;
let box: CliBox;

beforeAll(async () => {
  [cli, gemini, lab] = await Promise.all([
    buildCli(),
    startGemini({ script: [shellTurn('REMOTE', 'echo far > far.txt')] }),
    startSshLab(['box-x']),
  ]);
  await gemini.ready(120_000);
  dir = tempDir('tower-e2e-gemini-');
  box = cliBox(cli, lab, dir, { ...gemini, member: 'gem' });
}, 180_000);

afterAll(async () => {
  lab?.remove();
  await gemini?.stop();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('the real Gemini CLI on another box', () => {
  it('shows as gemini-cli, asking with the real command, and tower answer 1 approves it over ssh', async () => {
    const idle = await box.memberWhen((m) => m.activity === 'waiting' && !m.prompt, 'the member waiting at its box');
    expect(idle).toMatchObject({ agent: 'gemini-cli', activityCue: 'prompt' });

    await gemini.submit('please REMOTE');
    await gemini.waitForScreen('Allow execution', 90_000);
    const asking = await box.memberWhen((m) => m.prompt !== undefined, 'the dialog in status --json');
    expect(asking).toMatchObject({ agent: 'gemini-cli', activity: 'waiting', activityCue: 'question' });
    expect(asking.prompt?.question).toBe('Allow execution of [Shell]?');
    expect(asking.prompt?.subject).toContain('echo far > far.txt');

    const answered = await box.tower('answer', CREW_RUN, '--member', 'gem', '1');
    expect(answered.exitCode, `${String(answered.stdout)}\n${String(answered.stderr)}`).toBe(0);
    expect(answered.stdout).toContain('answered 1');
    await waitFor(() => functionResponseSeen(gemini.api.requests) !== null, 90_000, {
      what: 'the command output sent to the model',
    });
    expect(fs.readFileSync(path.join(gemini.project, 'far.txt'), 'utf8')).toBe('far\n');
  }, 240_000);
});
