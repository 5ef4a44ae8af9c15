/**
 * Answering an agent from tower, on a real pane of a private tmux server: the agent draws a
 * permission prompt as Claude Code does and waits for a line. `answer` types the option and a raw
 * carriage return, then sees the prompt clear; `send` types a line; both refuse when the pane shows
 * something else than what they act on.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { readPrompt } from '../../src/store/prompt-reading.js';
import { procStart } from '../../src/tmux/proc-start.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

const AGENT = fileURLToPath(new URL('../fixtures/agents/asking-agent.mjs', import.meta.url));

let tmux: TmuxFixture;
let w: ActionWorld;
let pane: string;

function team(prompt = true): Run {
  const run = emptyRun('claude-team', 'docs', null, null);
  run.members = [
    { name: 'team-lead', role: 'team-lead', model: 'm', paneId: pane, state: 'alive', lead: true },
    { name: 'writer-2', role: 'writer', model: 'm', paneId: pane, state: 'alive', lead: false },
  ];
  if (!prompt) run.members[1]!.prompt = undefined;
  return run;
}

const screen = async () => tmux.client.capturePane(pane);

/** The team as a snapshot reads it now: writer-2's pane's prompt read from its screen. */
async function seenTeam(): Promise<Run> {
  const run = team();
  run.members[1]!.prompt = readPrompt(await screen()) ?? undefined;
  return run;
}

beforeEach(async () => {
  tmux = await startTmux();
  const home = tempDir('tower-answer-');
  w = actionWorld(tmux.name, home);
  pane = await tmux.newSession('writer-2', home, `node ${AGENT}`);
  await waitFor(async () => (await screen()).includes('Do you want to proceed?'), 5000, {
    what: 'the permission prompt',
  });
});

afterEach(async () => {
  await tmux.kill();
});

describe('answer', () => {
  it('reads the prompt as Claude Code draws it: the command, the question, the numbered options', async () => {
    const p = readPrompt(await screen());
    expect(p?.subject).toEqual(['Bash command', 'npm run deploy --prod']);
    expect(p?.question).toBe('Do you want to proceed?');
    expect(p?.options).toEqual([
      { key: '1', label: 'Yes' },
      { key: '2', label: 'No, and tell Claude what to do differently' },
    ]);
  });

  it('types the option and a raw carriage return, sees the prompt clear and the agent go on, and audits it', async () => {
    w.setSnapshot(snapshotOf(await seenTeam()));
    const plan = planAction(w.env, { kind: 'answer', run: 'claude-team:docs', members: ['writer-2'], choice: '1' });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.text)).toEqual([
      expect.stringContaining('check what'),
      `tmux -L ${tmux.name} send-keys -t ${pane} -l -- 1`,
      `tmux -L ${tmux.name} send-keys -t ${pane} -H 0D`,
      expect.stringContaining('for the question and its options to go'),
    ]);
    const outcome = await runAction(w.env, plan);
    expect(outcome).toMatchObject({
      status: 'done',
      message: 'answered 1 (Yes) to writer-2: the question and its options are gone',
    });
    expect(outcome.approved).toEqual([
      'the dialog, line by line as the pane draws it:',
      '  Bash command',
      '  npm run deploy --prod',
      'Do you want to proceed? → 1. Yes',
    ]);
    expect(plan.approves).toEqual(outcome.approved);
    await waitFor(async () => (await screen()).includes('allowed: deploying'), 5000, { what: 'the agent to go on' });
    expect(w.audit().at(-1)).toMatchObject({
      action: 'answer',
      run: 'claude-team:docs',
      target: pane,
      outcome: 'done',
      approved: outcome.approved,
    });
  });

  it('types only into the process the operator saw: its pid and start are read with the screen, right before typing', async () => {
    const owner = (await tmux.client.paneOwner(pane))!;
    const start = procStart(owner.pid);
    const asking = async (process: { pid: number; start: number | null }) => {
      const run = await seenTeam();
      run.members[1]!.paneProcess = process;
      w.setSnapshot(snapshotOf(run));
      return planAction(w.env, { kind: 'answer', run: 'docs', members: ['writer-2'], choice: '1' });
    };
    // Another process in the pane than the one seen (its pid, or its pid given again: its start).
    for (const wrong of [
      { pid: owner.pid + 1, start },
      { pid: owner.pid, start: (start ?? 0) + 1 },
    ]) {
      const outcome = await runAction(w.env, await asking(wrong));
      expect(outcome).toMatchObject({ status: 'refused', message: expect.stringContaining('is not the one you saw') });
      expect(await screen()).toContain('Do you want to proceed?');
      expect(await screen()).not.toContain('allowed');
    }
    expect(await runAction(w.env, await asking({ pid: owner.pid, start }))).toMatchObject({ status: 'done' });
    await waitFor(async () => (await screen()).includes('allowed: deploying'), 5000, { what: 'the agent to go on' });
  });

  it('refuses when the pane shows no prompt any more, or another one than the operator saw', async () => {
    w.setSnapshot(snapshotOf(await seenTeam()));
    const seen = readPrompt(await screen())!;
    const other = planAction(w.env, {
      kind: 'answer',
      run: 'docs',
      members: ['writer-2'],
      choice: '1',
      expect: `${seen.signature}x`,
    });
    expect(await runAction(w.env, other)).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('another prompt than the one you saw'),
    });
    await tmux.client.sendText(pane, '2');
    await tmux.client.run(['send-keys', '-t', pane, '-H', '0D']);
    await waitFor(async () => (await screen()).includes('declined'), 5000, {
      what: 'the agent to take the other answer',
    });
    const late = planAction(w.env, {
      kind: 'answer',
      run: 'docs',
      members: ['writer-2'],
      choice: '1',
      expect: seen.signature,
    });
    expect(await runAction(w.env, late)).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('shows no prompt now'),
    });
    expect(await screen()).not.toContain('allowed');
  });

  it('refuses an option the prompt does not have, read-only mode, and shows the effects in a dry run', async () => {
    w.setSnapshot(snapshotOf(await seenTeam()));
    const nine = planAction(w.env, { kind: 'answer', run: 'docs', members: ['writer-2'], choice: '9' });
    expect(await runAction(w.env, nine)).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('has no option 9'),
    });
    expect(planAction(w.env, { kind: 'answer', run: 'docs', choice: '1' }).refusal).toMatch(/name the member/);
    w.ctx.dryRun = true;
    const dry = await runAction(
      w.env,
      planAction(w.env, { kind: 'answer', run: 'docs', members: ['writer-2'], choice: '1' }),
    );
    expect(dry.status).toBe('done');
    expect(dry.details).toContain(`tmux -L ${tmux.name} send-keys -t ${pane} -H 0D`);
    w.ctx.dryRun = false;
    w.ctx.readonly = true;
    expect(planAction(w.env, { kind: 'answer', run: 'docs', members: ['writer-2'], choice: '1' }).refusal).toBe(
      'read-only mode',
    );
    expect(await screen()).toContain('Do you want to proceed?');
  });
});

describe('send', () => {
  it('refuses while the pane shows a prompt, then types a line that the agent takes', async () => {
    w.setSnapshot(snapshotOf(await seenTeam()));
    const early = await runAction(
      w.env,
      planAction(w.env, { kind: 'send', run: 'docs', members: ['writer-2'], text: 'use the staging flag' }),
    );
    expect(early).toMatchObject({ status: 'refused', message: expect.stringContaining('shows a prompt') });
    await runAction(w.env, planAction(w.env, { kind: 'answer', run: 'docs', members: ['writer-2'], choice: '2' }));
    await waitFor(async () => (await screen()).includes('declined'), 5000, { what: 'the declined answer' });
    const sent = await runAction(
      w.env,
      planAction(w.env, { kind: 'send', run: 'docs', members: ['writer-2'], text: 'use the staging flag' }),
    );
    expect(sent).toMatchObject({ status: 'done' });
    await waitFor(async () => (await screen()).includes('got: use the staging flag'), 5000, {
      what: 'the agent to get the line',
    });
  });

  it('says "sent, not yet confirmed" (not failed) when nothing shows the line taken', async () => {
    // A plain prompt that never takes the line (the terminal echoes it, nothing reads it) and no
    // Claude Code session: nothing can confirm the line.
    const quiet = await tmux.newSession(
      'quiet',
      tempDir('tower-answer-quiet-'),
      `sh -c 'printf "> "; exec sleep 100000'`,
    );
    await waitFor(async () => (await tmux.client.capturePane(quiet)).startsWith('>'), 5000, { what: 'the prompt' });
    const run = emptyRun('claude-team', 'docs', null, null);
    run.members = [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: quiet, state: 'alive', lead: true }];
    w.setSnapshot(snapshotOf(run));
    const sent = await runAction(w.env, planAction(w.env, { kind: 'send', run: 'docs', text: 'SENT-LINE-L' }));
    expect(sent.status).toBe('done');
    expect(sent.message).toMatch(/^sent, not yet confirmed: typed the line into %\d+ and pressed Enter/);
    expect(await tmux.client.capturePane(quiet)).toContain('SENT-LINE-L');
  });

  it('types to the lead by default and refuses control characters', () => {
    w.setSnapshot(snapshotOf(team()));
    expect(planAction(w.env, { kind: 'send', run: 'docs', text: 'hello' }).title).toContain('team-lead');
    expect(planAction(w.env, { kind: 'send', run: 'docs', text: 'a\u001b[2Jb' }).refusal).toMatch(/control characters/);
    expect(planAction(w.env, { kind: 'send', run: 'docs', text: 'two\nlines' }).refusal).toMatch(/control characters/);
  });
});
