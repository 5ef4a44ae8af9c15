/**
 * tower reading and acting on the real Codex CLI 0.169.0 (the harness in test/helpers/codex-cli),
 * one CLI shared by the cases in order: its pane told as Codex though tmux says `node`; waiting at
 * its box; asking with the real command, its source the screen; approved with `tower answer 1` and
 * denied with `n`, each checked by what the Responses API stand-in receives next; a line typed with
 * `tower send` and submitted; the rollout's context and tokens; an answer refused once the pane's
 * process is not the one the snapshot saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { rolloutUsage } from '../../src/agents/codex/rollout.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';

import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { threadList } from '../helpers/codex-cli/app-server.js';
import { startCodex, type CodexRun } from '../helpers/codex-cli/launch.js';
import { lastCallOutput, lastUserText } from '../helpers/codex-cli/responses-api.js';
import { DIALOG_QUESTION, afterRunTurn, escalationTurn, say } from '../helpers/codex-cli/scenarios.js';
import { readMember, readMemberWhen } from '../helpers/member-reads.js';
import { waitFor } from '../helpers/wait-for.js';

let c: CodexRun;
let watch: PaneWatch;
let acting: ReturnType<typeof actingWorld>;
let run: Run;

function agent(paneId: string): Member {
  return { name: 'coder', role: 'coder', model: 'm', paneId, state: 'alive', lead: true };
}

const seen = () => readMember({ watch, paneId: c.paneId, run });
const seenWhen = (want: (m: Member) => boolean) =>
  readMemberWhen({ watch, paneId: c.paneId, run }, want, { timeoutMs: 30_000, intervalMs: 100 });

function answer(choice: string) {
  return planAction(acting.w.env, { kind: 'answer', run: run.id, members: ['coder'], choice });
}

beforeAll(async () => {
  c = await startCodex({
    columns: 100,
    rows: 40,
    script: [
      escalationTurn('make the file', 'touch approved.txt', 'Create approved.txt outside the sandbox?', {
        input_tokens: 21_000,
        cached_tokens: 9_000,
        output_tokens: 50,
      }),
      afterRunTurn('make the file', 'Created approved.txt.', { input_tokens: 30_000, output_tokens: 12 }),
      escalationTurn('remove it', 'rm approved.txt', 'Remove approved.txt outside the sandbox?'),
    ],
  });
  await c.ready();
  acting = actingWorld(c, 'tower-codex-act-');
  watch = new PaneWatch(acting.tmux);
  run = { ...emptyRun('claude-team', 'codex', c.project, null), members: [agent(c.paneId)] };
}, 90_000);

afterAll(async () => {
  await c?.stop();
});

describe('the real Codex CLI in a pane', { timeout: 90_000 }, () => {
  it('is told as Codex though tmux says node, waiting at its input box', async () => {
    expect(await c.tmux.run(['display-message', '-p', '-t', c.paneId, '#{pane_current_command}'])).toBe('node\n');
    const m = (await seenWhen((x) => x.activity === 'waiting')).members[0]!;
    expect(m).toMatchObject({ agent: 'codex', activity: 'waiting', activityCue: 'prompt', activitySource: 'screen' });
    expect(m.prompt).toBeUndefined();
  });

  it('asks with the real command, and tower answer 1 approves it: the command runs and its output goes to the model', async () => {
    await say(c, 'make the file');
    await c.waitForScreen(DIALOG_QUESTION, 60_000);
    const read = await seenWhen((x) => x.prompt !== undefined);
    const m = read.members[0]!;
    expect(m).toMatchObject({ agent: 'codex', activity: 'waiting', activityCue: 'question' });
    expect(m.prompt!.question).toBe(DIALOG_QUESTION);
    expect(m.prompt!.subject).toEqual([
      'Environment: local',
      'Reason: Create approved.txt outside the sandbox?',
      '$ touch approved.txt',
    ]);
    expect(m.prompt!.options.map((o) => o.key)).toEqual(['1', '2', '3']);
    // The shared app server says the same: its thread waits on an approval.
    const asking = await threadList(c.codexHome);
    expect(asking.data.map((t) => t.status)).toContainEqual({ type: 'active', activeFlags: ['waitingOnApproval'] });

    acting.w.setSnapshot(snapshotOf(read));
    const before = c.api.requests.length;
    const plan = answer('1');
    expect(plan.title).toContain('→ 1. Yes, proceed (y)');
    const outcome = await runAction(acting.w.env, plan);
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('answered 1') });
    // Codex takes the key alone: tower typed `1` and no Enter after it.
    const typed = acting.tmux.sent.slice(-1)[0]!.args;
    expect(typed).toEqual(['send-keys', '-t', c.paneId, '-l', '--', '1']);
    await waitFor(
      () => c.api.requests.slice(before).some((r) => (lastCallOutput(r) ?? '').includes('exited with code 0')),
      30_000,
      { what: 'the command output sent to the model' },
    );
    expect(fs.existsSync(path.join(c.project, 'approved.txt'))).toBe(true);
    await c.waitForScreen('Created approved.txt.');
  });

  it('tower answer n denies: the turn is cancelled and the model hears nothing of the command', async () => {
    await say(c, 'remove it');
    await c.waitForScreen('$ rm approved.txt', 60_000);
    const read = await seenWhen((x) => x.prompt?.subject.includes('$ rm approved.txt') === true);
    acting.w.setSnapshot(snapshotOf(read));
    const before = c.api.requests.length;
    const plan = answer('n');
    expect(plan.title).toContain('→ 3. No, and tell Codex what to do differently (esc)');
    expect(await runAction(acting.w.env, plan)).toMatchObject({ status: 'done' });
    await c.waitForScreen('Conversation interrupted');
    expect(c.api.requests.slice(before).filter((r) => lastCallOutput(r) !== null)).toEqual([]);
    expect(fs.existsSync(path.join(c.project, 'approved.txt'))).toBe(true);
  });

  it('tower send types a line that is submitted: the model receives it', async () => {
    const read = await seenWhen((x) => x.prompt === undefined);
    acting.w.setSnapshot(snapshotOf(read));
    const before = c.api.requests.length;
    const outcome = await runAction(
      acting.w.env,
      planAction(acting.w.env, { kind: 'send', run: run.id, members: ['coder'], text: 'summarize what you did' }),
    );
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('left the input box') });
    // Pasted whole (bracketed), then a carriage return: never typed key by key.
    expect(acting.tmux.sent.slice(-1)[0]!.args).toEqual(['send-keys', '-t', c.paneId, '-H', '0D']);
    await waitFor(
      () => c.api.requests.slice(before).some((r) => lastUserText(r) === 'summarize what you did'),
      30_000,
      { what: 'the line to reach the model' },
    );
  });

  it('gives context and tokens from its rollout, the one the app server names for its folder', async () => {
    const threads = (await threadList(c.codexHome)).data.filter((t) => t.cwd === c.project && !t.ephemeral);
    const file = threads
      .map((t) => t.path)
      .find((p): p is string => typeof p === 'string' && /rollout-.*\.jsonl$/.test(p));
    expect(file).toBeDefined();
    const usage = await waitFor(() => rolloutUsage(file!), 10_000, { what: 'a token count in the rollout' });
    expect(usage.window).toBeGreaterThan(100_000);
    expect(usage.tokens.cacheRead).toBeGreaterThanOrEqual(9_000);
    expect(usage.tokens.input + usage.tokens.cacheRead).toBeGreaterThanOrEqual(51_000);
  });

  it('refuses to answer once the pane runs another process than the snapshot saw', async () => {
    await say(c, 'make the file again');
    const read = await seen();
    const m = read.members[0]!;
    acting.w.setSnapshot(snapshotOf({ ...read, members: [{ ...m, paneProcess: { pid: c.pid + 100_000, start: 1 } }] }));
    const sentBefore = acting.tmux.sent.length;
    const outcome = await runAction(
      acting.w.env,
      planAction(acting.w.env, { kind: 'send', run: run.id, members: ['coder'], text: 'go on' }),
    );
    expect(outcome.status).not.toBe('done');
    expect(acting.tmux.sent.length).toBe(sentBefore);
  });
});
