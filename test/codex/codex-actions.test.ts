/**
 * The checkpoint cycle and the answers on a real Codex CLI 0.169.0 lead (the harness in test/helpers/codex-cli), one
 * CLI shared by the cases in order. Codex runs no system's slash commands (a team's `/checkpoint`
 * is "Unrecognized command" to it), so tower goes through the cycle with its own: `tower checkpoint`
 * types `/compact` (Codex has the model write a handoff summary and goes on from it) and `tower
 * rehydrate` types `/new`, each through the input guard, each taken only once Codex's screen shows
 * it: checked by what the Responses API stand-in receives and by the threads of the app server.
 * Then its dialog answered with the keys its module gives (`y` approves, `esc` denies), and a key
 * it does not take refused before anything is typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';

import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import { threadList } from '../helpers/codex-cli/app-server.js';
import { startCodex, type CodexRun } from '../helpers/codex-cli/launch.js';
import { lastCallOutput, lastUserText, type SeenRequest } from '../helpers/codex-cli/responses-api.js';
import { DIALOG_QUESTION, afterRunTurn, escalationTurn, say } from '../helpers/codex-cli/scenarios.js';
import fs from 'node:fs';
import path from 'node:path';
import { readMemberWhen } from '../helpers/member-reads.js';
import { waitFor } from '../helpers/wait-for.js';

let c: CodexRun;
let watch: PaneWatch;
let acting: ReturnType<typeof actingWorld>;
let run: Run;

/** Every user message a request to the stand-in carries. */
function userTexts(r: SeenRequest): string {
  return JSON.stringify((r.input as Array<{ role?: string }>).filter((i) => i.role === 'user'));
}

/** The run as tower status reads it once its lead's pane reads as `want`. */
const seenWhen = (want: (m: Member) => boolean) =>
  readMemberWhen({ watch, paneId: c.paneId, run }, want, { timeoutMs: 30_000, intervalMs: 100 });

/** The threads the app server has for the project (not the hidden ones). */
async function projectThreads(): Promise<string[]> {
  return (await threadList(c.codexHome)).data
    .filter((t) => t.cwd === c.project && !t.ephemeral)
    .map((t) => String(t.id));
}

beforeAll(async () => {
  c = await startCodex({
    columns: 100,
    rows: 40,
    script: [
      { when: (r) => lastUserText(r).includes('remember the word'), items: [{ type: 'text', text: 'Noted: otter.' }] },
      escalationTurn('make the file', 'touch cycle.txt', 'Create cycle.txt outside the sandbox?'),
      afterRunTurn('make the file', 'Created cycle.txt.'),
      escalationTurn('remove it', 'rm cycle.txt', 'Remove cycle.txt outside the sandbox?'),
    ],
  });
  await c.ready();
  acting = actingWorld(c, 'tower-codex-cycle-');
  watch = new PaneWatch(acting.tmux);
  const lead: Member = { name: 'team-lead', role: 'lead', model: 'm', paneId: c.paneId, state: 'alive', lead: true };
  run = { ...emptyRun('claude-team', 'codex-team', c.project, null), members: [lead] };
  await say(c, 'remember the word otter');
  await c.waitForScreen('Noted: otter.', 60_000);
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

describe('the checkpoint cycle on a real Codex lead', { timeout: 90_000 }, () => {
  it('tower checkpoint types /compact, not the team command, and is done once Codex shows it compacted', async () => {
    acting.w.setSnapshot(snapshotOf(await seenWhen((m) => m.agent === 'codex' && m.activity === 'waiting')));
    const plan = planAction(acting.w.env, { kind: 'checkpoint', run: run.id, timeoutSec: 60 });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.text).join('\n')).toContain('type "/compact" into');
    expect(plan.effects.map((e) => e.text).join('\n')).not.toContain('/checkpoint');
    const before = c.api.requests.length;
    const outcome = await runAction(acting.w.env, plan);
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('compacted its conversation') });
    // Codex asked the model for its handoff summary, the conversation so far with it.
    const asked = c.api.requests.slice(before);
    expect(asked.some((r) => lastUserText(r).includes('CHECKPOINT COMPACTION') && userTexts(r).includes('otter'))).toBe(
      true,
    );
  });

  it('tower rehydrate types /new: the next message goes to the model in a new thread, without the old one', async () => {
    acting.w.setSnapshot(snapshotOf(await seenWhen((m) => m.activity === 'waiting' && m.prompt === undefined)));
    const threadsBefore = await projectThreads();
    const plan = planAction(acting.w.env, { kind: 'rehydrate', run: run.id });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.text).join('\n')).toContain('type "/new" into');
    const outcome = await runAction(acting.w.env, plan);
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('started a new conversation') });
    expect(await c.screen()).not.toContain('Noted: otter.');

    const before = c.api.requests.length;
    await say(c, 'what was the word');
    const next = await waitFor(
      () => c.api.requests.slice(before).find((r) => lastUserText(r).includes('what was the word')),
      30_000,
      { what: 'the message after /new at the stand-in' },
    );
    expect(userTexts(next)).not.toContain('otter');
    const threadsAfter = await waitFor(
      async () => ((await projectThreads()).length > threadsBefore.length ? projectThreads() : null),
      30_000,
      { what: 'a new thread on the app server' },
    );
    expect(threadsAfter.filter((t) => !threadsBefore.includes(t))).toHaveLength(1);
  });

  it('types no cycle command while Codex shows its approval dialog', async () => {
    await say(c, 'make the file');
    await c.waitForScreen(DIALOG_QUESTION, 60_000);
    acting.w.setSnapshot(snapshotOf(await seenWhen((m) => m.prompt !== undefined)));
    const sent = acting.tmux.sent.length;
    const outcome = await runAction(acting.w.env, planAction(acting.w.env, { kind: 'checkpoint', run: run.id }));
    expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('/compact was not typed') });
    expect(acting.tmux.sent.length).toBe(sent);
    expect(await c.screen()).toContain(DIALOG_QUESTION);
  });

  it('refuses the cycle on a CLI whose own commands tower cannot confirm, naming why', () => {
    for (const agent of ['opencode', 'gemini-cli'] as const) {
      const lead: Member = { ...run.members[0]!, agent };
      acting.w.setSnapshot(snapshotOf({ ...run, members: [lead] }));
      for (const kind of ['checkpoint', 'rehydrate'] as const) {
        const plan = planAction(acting.w.env, { kind, run: run.id });
        expect(plan.refusal).toMatch(/runs no claude-team commands, and its own: how .* took is not read by tower yet/);
      }
    }
  });

  it('tower answer y approves the dialog shown: the command runs and its output goes to the model', async () => {
    acting.w.setSnapshot(snapshotOf(await seenWhen((m) => m.prompt?.subject.includes('$ touch cycle.txt') === true)));
    const before = c.api.requests.length;
    const plan = planAction(acting.w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice: 'y' });
    expect(plan.title).toContain('→ 1. Yes, proceed (y)');
    expect(await runAction(acting.w.env, plan)).toMatchObject({ status: 'done' });
    expect(acting.tmux.sent.slice(-1)[0]!.args).toEqual(['send-keys', '-t', c.paneId, '-l', '--', '1']);
    await waitFor(
      () => c.api.requests.slice(before).some((r) => (lastCallOutput(r) ?? '').includes('exited with code 0')),
      30_000,
      { what: 'the command output sent to the model' },
    );
    expect(fs.existsSync(path.join(c.project, 'cycle.txt'))).toBe(true);
    await c.waitForScreen('Created cycle.txt.', 30_000);
  });

  it('refuses a key Codex does not take, naming its keys; esc denies: the model hears nothing of the command', async () => {
    await say(c, 'remove it');
    await c.waitForScreen('$ rm cycle.txt', 60_000);
    acting.w.setSnapshot(snapshotOf(await seenWhen((m) => m.prompt?.subject.includes('$ rm cycle.txt') === true)));
    const sent = acting.tmux.sent.length;
    for (const choice of ['4', 'shift']) {
      const refused = planAction(acting.w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice });
      expect(refused.refusal).toBe(`the answer to Codex is one of 1 2 3 y p n esc: not "${choice}"`);
    }
    const before = c.api.requests.length;
    const plan = planAction(acting.w.env, { kind: 'answer', run: run.id, members: ['team-lead'], choice: 'esc' });
    expect(plan.title).toContain('→ 3. No, and tell Codex what to do differently (esc)');
    expect(await runAction(acting.w.env, plan)).toMatchObject({ status: 'done' });
    expect(acting.tmux.sent.slice(sent).map((s) => s.args.slice(-1)[0])).toEqual(['3']);
    await c.waitForScreen('Conversation interrupted', 30_000);
    expect(c.api.requests.slice(before).filter((r) => lastCallOutput(r) !== null)).toEqual([]);
    expect(fs.existsSync(path.join(c.project, 'cycle.txt'))).toBe(true);
  });
});
