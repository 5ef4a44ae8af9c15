/**
 * The real opencode 1.18.33 (`opencode --port N`, one for the file) against the chat completions
 * stand-in: tower tells its pane and reads it asking with the real command (as tower status does);
 * its module reads the same from its server and answers there by request id; `tower answer n`
 * rejects by the dialog's own key; Allow once by Enter once the selection is seen on it; `tower
 * send` submits a line. What the stand-in model is sent next says whether a command ran.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opencode } from '../../src/agents/opencode/index.js';
import { readPrompt, readScreen, selectedOption } from '../../src/agents/opencode/screen.js';
import { EventParser, pendingPermissions, portOf, replyPermission } from '../../src/agents/opencode/server.js';
import { OpencodeState } from '../../src/agents/opencode/state.js';
import { opencodeWays } from '../../src/agents/opencode/ways.js';
import { planAction, runAction } from '../../src/actions/index.js';
import { agentOfPane } from '../../src/agents/registry.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import type { AgentPrompt, SendKeys } from '../../src/agents/types.js';
import { lastToolResult, lastUserText } from '../helpers/opencode-cli/chat-api.js';
import { CONTEXT_LIMIT, startOpencode, type OpencodeRun } from '../helpers/opencode-cli/launch.js';
import { bashTurn, isConversation } from '../helpers/opencode-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

let oc: OpencodeRun;
let watch: PaneWatch;
let acting: ReturnType<typeof actingWorld>;
let run: Run;
/** Under load a request may take longer than tower's own 2 s bound. */
const SLOW = { timeoutMs: 15_000 };

/** The run with its member's activity and prompt laid over it from one capture round, as tower status reads it. */
async function seen(): Promise<Run> {
  await watch.round([oc.paneId], null);
  return new ActivityOverlay(watch).apply(snapshotOf(run)).runs[0]!;
}

/** The first read whose member satisfies `want`. */
function seenWhen(want: (m: Member) => boolean): Promise<Run> {
  return waitFor(
    async () => {
      const r = await seen();
      return want(r.members[0]!) ? r : null;
    },
    60_000,
    { intervalMs: 200, what: 'the member to read as wanted' },
  );
}

/** Plans and runs `tower answer <choice>` or `tower send <text>` on the member as last seen. */
async function act(read: Run, action: { choice: string } | { text: string }) {
  acting.w.setSnapshot(snapshotOf(read));
  const plan = planAction(
    acting.w.env,
    'choice' in action
      ? { kind: 'answer', run: run.id, members: ['oc'], choice: action.choice }
      : { kind: 'send', run: run.id, members: ['oc'], text: action.text },
  );
  return { plan, outcome: await runAction(acting.w.env, plan) };
}
const state = new OpencodeState();
const stream = new AbortController();

beforeAll(async () => {
  oc = await startOpencode({
    port: true,
    script: [
      { ...bashTurn('FIRST', 'echo one > one.txt'), usage: { prompt_tokens: 2345 } },
      bashTurn('SECOND', 'echo two > two.txt'),
      bashTurn('THIRD', 'echo three > three.txt'),
    ],
  });
  await oc.ready(150_000);
  acting = actingWorld(oc, 'tower-opencode-act-');
  watch = new PaneWatch(acting.tmux);
  const member: Member = { name: 'oc', role: 'coder', model: 'm', paneId: oc.paneId, state: 'alive', lead: true };
  run = { ...emptyRun('claude-team', 'opencode', oc.project, null), members: [member] };
  // The server's events, as tower follows them.
  const res = await fetch(`http://127.0.0.1:${oc.port}/event`, { signal: stream.signal });
  const parser = new EventParser();
  const dec = new TextDecoder();
  void (async () => {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>)
      for (const e of parser.push(dec.decode(chunk, { stream: true }))) state.apply(e);
  })().catch(() => {});
}, 180_000);
afterAll(async () => {
  stream.abort();
  await oc?.stop();
}, 30_000);

/** Types the calls of the module's typing ways into the pane. */
async function type(calls: readonly SendKeys[]): Promise<void> {
  for (const c of calls) await oc.tmux.run(['send-keys', '-t', oc.paneId, ...c]);
}

/** Asks for the command `trigger` scripts; returns the dialog read from the live screen. */
async function askFor(trigger: string): Promise<AgentPrompt> {
  await type(opencodeWays.typing.line(`please ${trigger}`));
  await oc.waitForScreen('Permission required', 90_000);
  // The dialog is drawn over a few frames: read it once it is whole.
  return waitFor(async () => readPrompt(await oc.screen()), 30_000, { what: 'the whole dialog' });
}

/** The tool result the stand-in was sent for `command`, or null. */
function resultFor(callIndex: number): string | null {
  const results = oc.api.requests.filter((r) => isConversation(r) && lastToolResult(r) !== null);
  return results[callIndex] ? lastToolResult(results[callIndex]!) : null;
}

describe('opencode 1.18.33 in tmux', () => {
  it('is told by its pane, its server by the port in its command line', async () => {
    const argv = fs.readFileSync(`/proc/${oc.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const command = (await oc.tmux.run(['display-message', '-p', '-t', oc.paneId, '#{pane_current_command}'])).trim();
    expect(agentOfPane({ command, argv: [argv] })?.id).toBe(opencode.id);
    expect(portOf(argv)).toBe(oc.port);
    expect(readScreen(await oc.screen(), false, command).activity).toBe('waiting');
    const m = (await seenWhen((x) => x.activity === 'waiting')).members[0]!;
    expect(m).toMatchObject({ agent: 'opencode', activity: 'waiting', activityCue: 'prompt' });
  });

  it('shows the real command, and an answer through the server by request id runs it', async () => {
    const prompt = await askFor('FIRST');
    expect(prompt.subject).toEqual(['# Shell command', '$ echo one > one.txt']);
    const asking = (await seenWhen((x) => x.prompt !== undefined)).members[0]!;
    expect(asking).toMatchObject({ agent: 'opencode', activity: 'waiting', activityCue: 'question' });
    expect(asking.prompt!.subject).toEqual(prompt.subject);
    await waitFor(() => state.activity()?.cue === 'question', 30_000, { what: 'permission.asked' });
    const listed = await pendingPermissions(oc.port!, SLOW);
    expect(listed.ok && listed.value.pending.map((p) => p.metadata?.command)).toEqual(['echo one > one.txt']);
    const id = listed.ok ? listed.value.pending[0]!.id : '';
    expect(state.pending().map((p) => p.id)).toEqual([id]);
    expect(await replyPermission(oc.port!, id, 'once', SLOW)).toEqual({ ok: true, value: true });
    await waitFor(() => resultFor(0) !== null, 90_000, { what: 'the tool result sent to the model' });
    expect(fs.readFileSync(path.join(oc.project, 'one.txt'), 'utf8')).toBe('one\n');
    await oc.waitForScreen(/^(?![\s\S]*Permission required)/, 30_000);
    await waitFor(() => state.activity()?.cue === 'prompt', 90_000, { what: 'the turn to end' });
    // The context as opencode counts it: the last assistant message's tokens over limit.context.
    expect(state.usage(CONTEXT_LIMIT)?.window).toBe(CONTEXT_LIMIT);
    expect(state.usage(CONTEXT_LIMIT)?.used).toBeGreaterThan(0);
  }, 240_000);

  it('tower answer 3 rejects by its own key: the command does not run and the model is sent nothing', async () => {
    const prompt = await askFor('SECOND');
    expect(prompt.subject).toContain('$ echo two > two.txt');
    const read = await seenWhen((x) => x.prompt?.subject.includes('$ echo two > two.txt') === true);
    const sent = oc.api.requests.length;
    // The planner takes `n` for an option whose label says No; opencode's says Reject.
    const { outcome } = await act(read, { choice: '3' });
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Reject)') });
    expect(acting.tmux.sent.slice(-1)[0]!.args).toEqual(['send-keys', '-t', oc.paneId, 'Escape']);
    await waitFor(() => state.pending().length === 0, 30_000, { what: 'permission.replied' });
    await waitFor(() => state.activity()?.cue === 'prompt', 60_000, { what: 'the turn to stop' });
    expect(fs.existsSync(path.join(oc.project, 'two.txt'))).toBe(false);
    expect(oc.api.requests.slice(sent).filter(isConversation)).toEqual([]);
  }, 240_000);

  it('tower answer 1 is refused, nothing typed; Enter allows once after the selection is seen on it; tower send submits a line', async () => {
    await askFor('THIRD');
    const read = await seenWhen((x) => x.prompt?.subject.includes('$ echo three > three.txt') === true);
    const typed = acting.tmux.sent.length;
    const { outcome } = await act(read, { choice: '1' });
    expect(outcome.status).toBe('refused');
    expect(acting.tmux.sent.length).toBe(typed);
    // What an answer by keys needs first: the selection, seen in the colours, on Allow once.
    const escaped = await oc.tmux.run(['capture-pane', '-p', '-e', '-t', oc.paneId]);
    expect(selectedOption(escaped)?.label).toBe('Allow once');
    await oc.keys('Enter');
    await waitFor(() => fs.existsSync(path.join(oc.project, 'three.txt')), 90_000, { what: 'three.txt' });
    await waitFor(() => state.activity()?.cue === 'prompt', 90_000, { what: 'the turn to end' });
    const line = 'a line typed by tower';
    const idle = await seenWhen((x) => x.prompt === undefined && x.activity === 'waiting');
    const sending = await act(idle, { text: line });
    expect(sending.outcome).toMatchObject({ status: 'done', message: expect.stringContaining('left the input box') });
    await waitFor(() => oc.api.requests.some((r) => isConversation(r) && lastUserText(r) === line), 90_000, {
      what: 'the line to reach the model',
    });
  }, 240_000);
});
