/**
 * Two permission requests held for one pane (a background subagent asks while its lead's request
 * is held), with real processes: the installed hook line run twice under `sh -c` as Claude Code
 * runs it, both with the same $TMUX_PANE. Both are shown, each is answered by itself, bound by its
 * id and its input's hash; an answer that names neither is refused naming both; a request whose
 * input changed between the plan and the answer gets nothing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { heldRequestsFor } from '../../src/store/held-requests.js';
import type { HeldRequest } from '../../src/store/held-requests.js';
import { HookEvents, hookEventsFile } from '../../src/store/hook-events.js';
import { snapshotWithActivity } from '../../src/store/this-box.js';
import { answerRequest } from '../../src/ui/state/requests.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

const ask = (command: string) => ({
  session_id: 'abc123',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command, description: 'Touch a file' },
});

let tmux: TmuxFixture;
let w: ActionWorld;
let home: string;
let pane: string;
let socket: string;
const children: ReturnType<typeof spawn>[] = [];

beforeEach(async () => {
  tmux = await startTmux();
  home = tempDir('tower-answer-two-');
  w = actionWorld(tmux.name, home);
  pane = await tmux.newSession('agent', home, 'sh -c "echo agent; sleep 100000"');
  socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await tmux.kill();
});

const towerState = () => path.join(w.ctx.env.XDG_STATE_HOME!, 'tower');

/** Runs the installed PermissionRequest line for the pane; resolves with what it printed. */
function holdingHook(request: object): Promise<string> {
  const child = spawn('sh', ['-c', hookCommand(30)], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_STATE_HOME: w.ctx.env.XDG_STATE_HOME,
      TMUX_PANE: pane,
      TMUX: `${socket},1,0`,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.end(JSON.stringify(request));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

function team(): Run {
  const run = emptyRun('claude-team', 'docs', null, null);
  run.members = [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: pane, state: 'alive', lead: true }];
  return run;
}

/** Holds A, then B (a later epoch second, so the order is known), for the same pane. */
async function twoHeld(): Promise<{ a: HeldRequest; b: HeldRequest; doneA: Promise<string>; doneB: Promise<string> }> {
  const doneA = holdingHook(ask('touch A_SHOWN.txt'));
  await waitFor(() => heldRequestsFor(towerState(), socket, pane).length === 1, 5000, { what: 'A to be held' });
  // B starts in a later second than A: held requests are ordered by the second they were held in.
  const since = heldRequestsFor(towerState(), socket, pane)[0]!.since;
  await waitFor(() => Date.now() >= since + 1000, 5000, { what: 'the next second' });
  const doneB = holdingHook(ask('touch B_NOT_SHOWN.txt'));
  await waitFor(() => heldRequestsFor(towerState(), socket, pane).length === 2, 5000, { what: 'B to be held' });
  const [a, b] = heldRequestsFor(towerState(), socket, pane);
  expect(a!.subject).toBe('touch A_SHOWN.txt');
  expect(b!.subject).toBe('touch B_NOT_SHOWN.txt');
  return { a: a!, b: b!, doneA, doneB };
}

const decision = (out: string) =>
  (JSON.parse(out) as { hookSpecificOutput: { decision: { behavior: string } } }).hookSpecificOutput.decision.behavior;

describe('two requests held for one pane', { timeout: 30_000 }, () => {
  it('are both shown; an answer naming neither is refused naming both; each is answered by its own id', async () => {
    const { a, b, doneA, doneB } = await twoHeld();
    const events = new HookEvents(hookEventsFile(towerState()));
    const snap = await snapshotWithActivity(tmux.client, snapshotOf(team()), events);
    const m = snap.runs[0]!.members[0]!;
    expect(m.held?.map((h) => [h.id, h.hash, h.subject])).toEqual([
      [a.id, a.hash, 'touch A_SHOWN.txt'],
      [b.id, b.hash, 'touch B_NOT_SHOWN.txt'],
    ]);
    expect(m.activity).toBe('waiting');
    // The oldest stands in for the dialog; the other is named under it.
    expect(m.prompt?.signature).toBe(`held:${a.id}:${a.hash}`);
    expect(m.prompt?.subject).toContain(
      `also held: request ${b.id} (Bash: touch B_NOT_SHOWN.txt): answer it by its id`,
    );
    w.setSnapshot(snap);

    // The command line names neither (its snapshot's prompt is not one the operator chose): both are named back.
    const neither = planAction(w.env, { kind: 'answer', run: 'docs', members: ['team-lead'], choice: '1' });
    expect(neither.refusal).toContain('2 permission requests are held');
    expect(neither.refusal).toContain(a.id);
    expect(neither.refusal).toContain(b.id);
    const cli = { ...w.env, snapshot: () => snapshotOf(team()) };

    // The prompt shown (A) is what the control room's key answers: A, and only A.
    const built = answerRequest({ run: snap.runs[0]!, member: m } as Parameters<typeof answerRequest>[0], '1');
    if (!built.ok) throw new Error('no request');
    const planA = planAction(w.env, built.request);
    expect(planA.refusal).toBeNull();
    expect(planA.request.request).toBe(`${a.id}:${a.hash}`);
    expect(planA.approves).toContain('  command: touch A_SHOWN.txt');
    const outA = await runAction(w.env, planA);
    expect(outA).toMatchObject({ status: 'done', approved: expect.arrayContaining(['  command: touch A_SHOWN.txt']) });
    expect(decision(await doneA)).toBe('allow');
    expect(heldRequestsFor(towerState(), socket, pane).map((r) => r.id)).toEqual([b.id]);

    // B by its id from the command line: denied, by itself.
    const planB = planAction(cli, {
      kind: 'answer',
      run: 'docs',
      members: ['team-lead'],
      choice: 'n',
      request: `${b.id}:${b.hash!.slice(0, 12)}`,
    });
    expect(planB.title).toContain('deny Bash: touch B_NOT_SHOWN.txt');
    expect(await runAction(w.env, planB)).toMatchObject({ status: 'done' });
    expect(decision(await doneB)).toBe('deny');
  });

  it('writes nothing when the request named holds another input than the one planned', async () => {
    const { a, b, doneA, doneB } = await twoHeld();
    const cli = { ...w.env, snapshot: () => snapshotOf(team()) };
    const plan = planAction(cli, { kind: 'answer', run: 'docs', members: ['team-lead'], choice: '1', request: a.id });
    expect(plan.refusal).toBeNull();
    // Between the plan and the answer the request's file says another command, under the same id.
    const text = fs.readFileSync(a.file, 'utf8');
    fs.writeFileSync(a.file, text.replace('touch A_SHOWN.txt', 'touch A_CHANGED.txt'));
    const outcome = await runAction(w.env, plan);
    expect(outcome).toMatchObject({
      status: 'refused',
      message: expect.stringContaining('another input than the one shown'),
    });
    expect(fs.existsSync(a.answerFile)).toBe(false);
    expect(fs.existsSync(b.answerFile)).toBe(false);
    // A hash named that is not the request's is refused at the plan.
    const stale = planAction(cli, {
      kind: 'answer',
      run: 'docs',
      members: ['team-lead'],
      choice: '1',
      request: `${b.id}:${'0'.repeat(12)}`,
    });
    expect(stale.refusal).toContain('is not the one shown');
    for (const r of [a, b]) fs.writeFileSync(r.answerFile, 'deny\n');
    await Promise.all([doneA, doneB]);
  });
});
