/**
 * The real opencode 1.18.33 (`opencode --port N`, one for the file) against the chat completions
 * stand-in. Read as tower status reads it with its server followed: its state, its request (the
 * real command, by the server's id) and its context come from the server's events, and `tower
 * answer` 1 / n answer there by request id. Read as where there is no server (the same pane, its
 * server not followed): the dialog from the screen, Allow once by moving the selection and reading
 * it back from the colours before Enter. `tower send` submits a line. What the stand-in model is
 * sent next says whether a command ran. Its server asks for a password (`OPENCODE_SERVER_PASSWORD`):
 * tower follows it with the one given in its config dir. The same pane is also a box's, reached
 * over real ssh (a private sshd on 127.0.0.1, the box's `tower serve` reading the pane's tmux
 * server): with no password on the box it is read from the screen and a problem says why; with
 * one, from its server; `tower answer` allows its request there. A question of its question tool
 * is answered through the server by id, and by its digit where none is followed. One opencode
 * serves every case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opencode } from '../../src/agents/opencode/index.js';
import { readPrompt, readScreen, selectedOption } from '../../src/agents/opencode/screen.js';
import { pendingPermissions, portOf } from '../../src/agents/opencode/server.js';
import { opencodeWays } from '../../src/agents/opencode/ways.js';

import { agentOfPane } from '../../src/agents/registry.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run, Snapshot } from '../../src/model/model.js';

import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import type { AgentPrompt, SendKeys } from '../../src/agents/types.js';
import { lastToolResult, lastUserText } from '../helpers/opencode-cli/chat-api.js';
import { CONTEXT_LIMIT, startOpencode, type OpencodeRun } from '../helpers/opencode-cli/launch.js';
import { COLOUR_QUESTION, bashTurn, isConversation, questionTurn } from '../helpers/opencode-cli/scenarios.js';
import { passwordFile } from '../../src/agents/opencode/password.js';
import { actOnMember, readMemberWhen } from '../helpers/member-reads.js';
import { waitFor } from '../helpers/wait-for.js';
import { RuleAnswerer, type RuleRecord } from '../../src/actions/rule-answer.js';
import { parseRules } from '../../src/rules/load.js';
import { tempDir } from '../helpers/box.js';
import { buildCli, type BuiltCli } from '../helpers/built-cli.js';
import { CREW_RUN, cliBox, type CliBox } from '../helpers/cli-box.js';
import { startSshLab, type SshLab } from '../helpers/sshd.js';

/** Rules that allow the echo commands and deny rm, judged by a rules follower as tower runs one. */
const RULES = parseRules(
  'rules.json',
  JSON.stringify({
    rules: [
      { name: 'echoes', decision: 'allow', agent: 'opencode', tool: 'Bash', command: ['echo * > *.txt'] },
      { name: 'no rm', decision: 'deny', tool: 'Bash', command: ['rm *'] },
    ],
  }),
);
const records: RuleRecord[] = [];

let oc: OpencodeRun;
/** Captures with the pane's server followed, as tower reads a pane whose process serves. */
let served: PaneWatch;
/** Captures with no server followed, as tower reads a pane where none listens. */
let screenOnly: PaneWatch;
let acting: ReturnType<typeof actingWorld>;
let run: Run;
let cli: BuiltCli;
let lab: SshLab;
let boxDir: string;
/** The pane as box x's, seen from this side over ssh. */
let box: CliBox;
/** The password its server asks (basic auth), given to tower in a private file of its config dir. */
const PASSWORD = 'tower-test-pw-7';
/** This process's tower config dir (the password's), set for the file and given back after. */
let configHome: string;
const configBefore = process.env.XDG_CONFIG_HOME;
/** Under load a request may take longer than tower's own 2 s bound. */
const SLOW = { timeoutMs: 15_000, password: PASSWORD };

const seenWhen = (watch: PaneWatch, want: (m: Member) => boolean) =>
  readMemberWhen({ watch, paneId: oc.paneId, run }, want, { timeoutMs: 60_000, intervalMs: 200 });
const act = (read: Run, action: { choice: string } | { text: string }) => actOnMember(acting.w, read, action);

beforeAll(async () => {
  [cli, lab, oc] = await Promise.all([
    buildCli(),
    startSshLab(['box-x']),
    startOpencode({
      port: true,
      script: [
        { ...bashTurn('FIRST', 'echo one > one.txt'), usage: { prompt_tokens: 2345 } },
        bashTurn('SECOND', 'echo two > two.txt'),
        bashTurn('THIRD', 'echo three > three.txt'),
        bashTurn('FOURTH', 'echo four > four.txt'),
        bashTurn('FIFTH', 'rm -f one.txt'),
        bashTurn('SIXTH', 'echo six > six.txt'),
        questionTurn('SEVENTH'),
        questionTurn('EIGHTH'),
      ],
      env: { OPENCODE_SERVER_PASSWORD: PASSWORD },
    }),
  ]);
  await oc.ready(150_000);
  boxDir = tempDir('tower-opencode-box-');
  box = cliBox(cli, lab, boxDir, { ...oc, member: 'oc' });
  configHome = tempDir('tower-opencode-config-');
  process.env.XDG_CONFIG_HOME = configHome;
  fs.mkdirSync(path.dirname(passwordFile()), { recursive: true });
  fs.writeFileSync(passwordFile(), `${PASSWORD}\n`, { mode: 0o600 });
  acting = actingWorld(oc, 'tower-opencode-act-');
  served = new PaneWatch(acting.tmux, Date.now, null, null, null, 'live');
  screenOnly = new PaneWatch(acting.tmux);
  const member: Member = { name: 'oc', role: 'coder', model: 'm', paneId: oc.paneId, state: 'alive', lead: true };
  run = { ...emptyRun('claude-team', 'opencode', oc.project, null), members: [member] };
}, 180_000);
afterAll(async () => {
  served?.close();
  lab?.remove();
  await oc?.stop();
  cli?.remove();
  if (boxDir) fs.rmSync(boxDir, { recursive: true, force: true });
  if (configBefore === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = configBefore;
  if (configHome) fs.rmSync(configHome, { recursive: true, force: true });
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

/** The conversation requests that carry a tool's result (the turns after a command ran or was refused). */
function toolResults(): string[] {
  return oc.api.requests.filter((r) => isConversation(r) && lastToolResult(r) !== null).map((r) => lastToolResult(r)!);
}

describe('opencode 1.18.33 in tmux', () => {
  it('is told by its pane; its server, found by the port in its command line, says its state', async () => {
    const argv = fs.readFileSync(`/proc/${oc.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const command = (await oc.tmux.run(['display-message', '-p', '-t', oc.paneId, '#{pane_current_command}'])).trim();
    expect(agentOfPane({ command, argv: [argv] })?.id).toBe(opencode.id);
    expect(portOf(argv)).toBe(oc.port);
    expect(readScreen(await oc.screen(), false, command).activity).toBe('waiting');
    const m = (await seenWhen(served, (x) => x.activitySource === 'events')).members[0]!;
    expect(m).toMatchObject({ agent: 'opencode', activity: 'waiting', activityCue: 'prompt' });
    const bare = (await seenWhen(screenOnly, (x) => x.activity === 'waiting')).members[0]!;
    expect(bare).toMatchObject({ agent: 'opencode', activitySource: 'screen' });
  });

  it('shows the request its server asks, by id, with the real command; tower answer 1 allows it there', async () => {
    const drawn = await askFor('FIRST');
    const read = await seenWhen(served, (x) => x.prompt?.request !== undefined);
    const m = read.members[0]!;
    expect(m).toMatchObject({ activity: 'waiting', activityCue: 'question', activitySource: 'events' });
    const listed = await pendingPermissions(oc.port!, SLOW);
    const pending = listed.ok ? listed.value.pending : [];
    expect(pending.map((p) => p.metadata?.command)).toEqual(['echo one > one.txt']);
    // The very request the server lists, and the command the dialog draws.
    expect(m.prompt!.request).toEqual({ id: pending[0]!.id, tool: 'Bash', whole: '{"command":"echo one > one.txt"}' });
    expect(m.prompt!.subject).toEqual(drawn.subject);
    const typed = acting.tmux.sent.length;
    const { plan, outcome } = await act(read, { choice: '1' });
    expect(plan.title).toContain("through its CLI's server");
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Allow once)') });
    // What it approved, whole, kept in the outcome (and so the audit line) as the plan showed it.
    expect(plan.approves).toContain(`  ${m.prompt!.request!.whole}`);
    expect(outcome.approved).toEqual(plan.approves);
    expect(acting.tmux.sent.length).toBe(typed);
    await waitFor(() => toolResults().length === 1, 90_000, { what: 'the tool result sent to the model' });
    expect(fs.readFileSync(path.join(oc.project, 'one.txt'), 'utf8')).toBe('one\n');
    // The turn ends; the context as opencode counts it: the last assistant message's tokens over limit.context.
    const after = (
      await seenWhen(served, (x) => x.activityCue === 'prompt' && x.prompt === undefined && x.context !== undefined)
    ).members[0]!;
    expect(after.activitySource).toBe('events');
    expect(after.context?.window).toBe(CONTEXT_LIMIT);
    expect(after.context?.tokens).toBeGreaterThan(0);
  }, 240_000);

  it('tower answer n rejects the request through its server: nothing runs, the model is sent nothing', async () => {
    await askFor('SECOND');
    const read = await seenWhen(served, (x) => x.prompt?.subject.includes('$ echo two > two.txt') === true);
    const sent = oc.api.requests.length;
    const { outcome } = await act(read, { choice: 'n' });
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Reject)') });
    await seenWhen(served, (x) => x.prompt === undefined && x.activityCue === 'prompt');
    expect(fs.existsSync(path.join(oc.project, 'two.txt'))).toBe(false);
    expect(oc.api.requests.slice(sent).filter(isConversation)).toEqual([]);
  }, 240_000);

  it('with no server, Allow once by keys: the selection is moved onto it and read back before Enter; tower send submits', async () => {
    await askFor('THIRD');
    const read = await seenWhen(screenOnly, (x) => x.prompt?.subject.includes('$ echo three > three.txt') === true);
    expect(read.members[0]!.activitySource).toBe('screen');
    // Allow always asks a second Confirm: never typed.
    const typed = acting.tmux.sent.length;
    expect((await act(read, { choice: '2' })).outcome.status).toBe('refused');
    expect(acting.tmux.sent.length).toBe(typed);
    // The operator moved the selection to Reject: Enter now would reject.
    await oc.keys('Left');
    await waitFor(
      async () => selectedOption(await oc.tmux.run(['capture-pane', '-p', '-e', '-t', oc.paneId]))?.label === 'Reject',
      30_000,
      { what: 'the selection on Reject' },
    );
    // A dialog read from the screen is never judged by rule, though a rule would allow its command.
    const answerer = new RuleAnswerer(
      acting.w.env,
      () => RULES,
      (r) => records.push(r),
    );
    acting.w.setSnapshot(snapshotOf(read));
    await answerer.look();
    expect(records).toEqual([]);
    expect(acting.tmux.sent.length).toBe(typed);
    const { outcome } = await act(read, { choice: '1' });
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Allow once)') });
    // Right wraps from Reject to Allow once; Enter only then.
    expect(acting.tmux.sent.slice(typed).map((s) => s.args.slice(3))).toEqual([['Right'], ['Enter']]);
    await waitFor(() => toolResults().length === 2, 90_000, { what: 'the tool result sent to the model' });
    expect(fs.readFileSync(path.join(oc.project, 'three.txt'), 'utf8')).toBe('three\n');
    const line = 'a line typed by tower';
    const idle = await seenWhen(served, (x) => x.prompt === undefined && x.activityCue === 'prompt');
    const sending = await act(idle, { text: line });
    expect(sending.outcome).toMatchObject({ status: 'done', message: expect.stringContaining('left the input box') });
    await waitFor(() => oc.api.requests.some((r) => isConversation(r) && lastUserText(r) === line), 90_000, {
      what: 'the line to reach the model',
    });
  }, 240_000);

  it('rules decide the requests its server asks, answered there by id: allowed by rule, denied by rule', async () => {
    const answerer = new RuleAnswerer(
      acting.w.env,
      () => RULES,
      (r) => records.push(r),
    );
    await askFor('FOURTH');
    const asking = await seenWhen(served, (x) => x.prompt?.request?.whole === '{"command":"echo four > four.txt"}');
    acting.w.setSnapshot(snapshotOf(asking));
    await answerer.look();
    expect(records.at(-1)).toMatchObject({ said: 'allowed', rule: 'echoes', outcome: 'done', tool: 'Bash' });
    expect(records.at(-1)!.request).toBe(asking.members[0]!.prompt!.request!.id);
    expect(answerer.tally.allowed).toBe(1);
    await waitFor(() => fs.existsSync(path.join(oc.project, 'four.txt')), 90_000, { what: 'four.txt' });
    await seenWhen(served, (x) => x.prompt === undefined && x.activityCue === 'prompt');
    await askFor('FIFTH');
    const denying = await seenWhen(served, (x) => x.prompt?.request?.whole === '{"command":"rm -f one.txt"}');
    const sent = oc.api.requests.length;
    acting.w.setSnapshot(snapshotOf(denying));
    await answerer.look();
    expect(records.at(-1)).toMatchObject({ said: 'denied', rule: 'no rm', outcome: 'done' });
    expect(answerer.denials.get(`${run.id}/oc`)?.rule).toBe('no rm');
    await seenWhen(served, (x) => x.prompt === undefined && x.activityCue === 'prompt');
    expect(fs.existsSync(path.join(oc.project, 'one.txt'))).toBe(true);
    expect(oc.api.requests.slice(sent).filter(isConversation)).toEqual([]);
  }, 240_000);

  it('on another box over ssh: read from the screen without its password, from its server with it; tower answer 1 allows it', async () => {
    await askFor('SIXTH');
    const status = async () => JSON.parse(String((await box.tower('status', '--json')).stdout)) as Snapshot;
    // The box has no password for its server: its screen is read, and a problem says why.
    const bare = await box.memberWhen((m) => m.prompt?.subject.includes('$ echo six > six.txt') === true, 'the dialog');
    expect(bare).toMatchObject({ agent: 'opencode', activitySource: 'screen', activityCue: 'question' });
    const problems = await waitFor(
      async () => {
        const all = (await status()).problems.map((p) => p.message).join('\n');
        return all.includes('asks for a password (OPENCODE_SERVER_PASSWORD)') ? all : false;
      },
      60_000,
      { what: 'the problem row saying its server asks for a password', intervalMs: 500 },
    );
    expect(problems).not.toContain(PASSWORD);
    // The password given on the box (never this side's, which stays here): its server is followed.
    const boxFile = passwordFile({ XDG_CONFIG_HOME: path.join(boxDir, 'box-x', 'config') });
    fs.writeFileSync(boxFile, `${PASSWORD}\n`, { mode: 0o600 });
    const asking = await box.memberWhen(
      (m) => m.prompt?.request?.whole === '{"command":"echo six > six.txt"}',
      'the request in status --json',
    );
    expect(asking).toMatchObject({
      agent: 'opencode',
      activity: 'waiting',
      activityCue: 'question',
      activitySource: 'events',
    });
    expect(asking.prompt?.subject).toEqual(['# Shell command', '$ echo six > six.txt']);
    const answered = await box.tower('answer', CREW_RUN, '--member', 'oc', '1');
    expect(answered.exitCode, `${String(answered.stdout)}\n${String(answered.stderr)}`).toBe(0);
    expect(answered.stdout).toContain('answered 1');
    await waitFor(() => fs.existsSync(path.join(oc.project, 'six.txt')), 90_000, { what: 'six.txt' });
    expect(fs.readFileSync(path.join(oc.project, 'six.txt'), 'utf8')).toBe('six\n');
    const idle = await box.memberWhen((m) => m.activityCue === 'prompt' && !m.prompt, 'the member back at its input');
    expect(idle.activitySource).toBe('events');
    // Audited on the box's side, as an action run there for this tower.
    const audit = fs.readFileSync(path.join(box.boxState, 'tower', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"action":"answer"[^\n]*"outcome":"done"/);
  }, 120_000);

  it("its question tool's question: from its server with its options, answered there by id; by its digit with none", async () => {
    await type(opencodeWays.typing.line('please SEVENTH'));
    await oc.waitForScreen('esc dismiss', 90_000);
    const read = await seenWhen(served, (x) => x.prompt?.request?.tool === 'question');
    expect(read.members[0]!).toMatchObject({ activity: 'waiting', activityCue: 'question', activitySource: 'events' });
    expect(read.members[0]!.prompt).toMatchObject({
      question: COLOUR_QUESTION,
      subject: ['1. Red (A warm red)', '2. Blue (A cool blue)'],
      options: [
        { key: '1', label: 'Red' },
        { key: '2', label: 'Blue' },
      ],
    });
    const typed = acting.tmux.sent.length;
    const { plan, outcome } = await act(read, { choice: '2' });
    expect(plan.title).toContain("through its CLI's server");
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Blue)') });
    expect(acting.tmux.sent.length).toBe(typed);
    await waitFor(() => toolResults().some((r) => r.includes(`"${COLOUR_QUESTION}"="Blue"`)), 90_000, {
      what: 'the answer sent to the model',
    });
    await seenWhen(served, (x) => x.prompt === undefined && x.activityCue === 'prompt');
    // With no server followed: read from the screen, answered by its digit, seen gone before done.
    await type(opencodeWays.typing.line('please EIGHTH'));
    await oc.waitForScreen('esc dismiss', 90_000);
    const drawn = await seenWhen(screenOnly, (x) => x.prompt?.question === COLOUR_QUESTION).catch(async (e: Error) => {
      throw new Error(`${e.message}\n${await oc.tmux.run(['capture-pane', '-p', '-t', oc.paneId])}`);
    });
    expect(drawn.members[0]!.activitySource).toBe('screen');
    expect(drawn.members[0]!.prompt?.options.map((o) => o.label)).toEqual(['Red', 'Blue']);
    const before = acting.tmux.sent.length;
    const byKey = await act(drawn, { choice: '1' });
    expect(byKey.outcome).toMatchObject({ status: 'done', message: expect.stringContaining('(Red)') });
    expect(acting.tmux.sent.slice(before).map((s) => s.args.slice(3))).toEqual([['1']]);
    await waitFor(() => toolResults().some((r) => r.includes(`"${COLOUR_QUESTION}"="Red"`)), 90_000, {
      what: 'the answer sent to the model',
    });
  }, 240_000);
});
