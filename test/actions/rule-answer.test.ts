/**
 * Rules answering held requests with real processes: the installed hook line holds a request under
 * `sh -c` as Claude Code runs it, for a member's pane on a private tmux server, and tower's rules
 * follower answers it (or, in dry run, records what it would do and leaves it to the operator).
 * A rules file that is a symlink answers nothing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followRules, tallyWords } from '../../src/actions/rule-follow.js';
import type { RuleRecord } from '../../src/actions/rule-answer.js';
import { hookCommand } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { heldRequestFor } from '../../src/store/held-requests.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

const REQUEST = {
  session_id: 'abc123',
  cwd: '/home/user/my-project',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test && git status', description: 'Run the tests' },
};

let tmux: TmuxFixture;
let w: ActionWorld;
let home: string;
let pane: string;
let socket: string;
const children: ReturnType<typeof spawn>[] = [];
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  tmux = await startTmux();
  home = tempDir('tower-rule-answer-');
  w = actionWorld(tmux.name, home);
  pane = await tmux.newSession('agent', home, 'sh -c "echo agent; sleep 100000"');
  socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
  const run: Run = emptyRun('claude-team', 'docs', null, null);
  run.members = [{ name: 'writer', role: 'writer', model: 'm', paneId: pane, state: 'alive', lead: false }];
  w.setSnapshot(snapshotOf(run));
});

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await tmux.kill();
  fs.rmSync(home, { recursive: true, force: true });
});

const state = () => w.ctx.env.XDG_STATE_HOME!;

/** Runs the installed PermissionRequest line as Claude Code would; resolves with its stdout. */
function holdingHook(hold: number) {
  const child = spawn('sh', ['-c', hookCommand(hold)], {
    env: { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: state(), TMUX_PANE: pane, TMUX: `${socket},1,0` },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stdin.on('error', () => undefined);
  child.stdin.end(JSON.stringify(REQUEST));
  return new Promise<string>((resolve) => child.on('close', () => resolve(out)));
}

function rulesFile(rules: unknown): string {
  const dir = path.join(home, 'rules');
  fs.mkdirSync(dir, { mode: 0o700 });
  const file = path.join(dir, 'rules.json');
  fs.writeFileSync(file, JSON.stringify(rules), { mode: 0o600 });
  return file;
}

/** Follows the rules of `file` (a store that never changes: the follower's own look a second finds it). */
function follow(file: string, problems: (string | null)[] = []) {
  const records: RuleRecord[] = [];
  const f = followRules(w.env, { subscribe: () => () => {} }, (r) => records.push(r), {
    file,
    onProblem: (p) => problems.push(p),
  });
  stops.push(f.stop);
  return { records, answerer: f.answerer };
}

const heldNow = () =>
  waitFor(() => heldRequestFor(path.join(state(), 'tower'), socket, pane) !== null, 5000, {
    what: 'the hook to hold the request',
  });

describe('rules answering held requests', { timeout: 30_000 }, () => {
  it('allows a compound command every part of which a rule allows: the hook prints allow, on the record', async () => {
    const file = rulesFile({
      rules: [{ name: 'checks', decision: 'allow', tool: 'Bash', command: ['npm test', 'git status'] }],
    });
    const out = holdingHook(20);
    await heldNow();
    const { records, answerer } = follow(file);
    const said = await out;
    expect(JSON.parse(said)).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
    await waitFor(() => records.length > 0, 10_000, { what: 'the record of the answer' });
    expect(records[0]).toMatchObject({
      said: 'allowed',
      rule: 'checks',
      member: 'writer',
      tool: 'Bash',
      outcome: 'done',
    });
    expect(tallyWords(answerer.tally)).toBe('1 allowed by rule');
    expect(w.activity.getSnapshot().at(-1)).toMatchObject({
      action: 'answer',
      status: 'done',
      message: expect.stringContaining('by checks'),
    });
    expect(w.audit().at(-1)).toMatchObject({
      action: 'answer',
      // The whole input as shown, a compound command one part a line.
      rule: { rule: 'checks', member: 'writer', input: expect.stringMatching(/npm test &&\s*\n\s*git status/) },
    });
  });

  it('a rule in dry run records "would deny" and answers nothing: the hold ends with no decision', async () => {
    const file = rulesFile({ dryRun: true, rules: [{ name: 'no git', decision: 'deny', command: 'git *' }] });
    // Long enough that a first look on a loaded box still finds the request held.
    const out = holdingHook(8);
    await heldNow();
    const { records, answerer } = follow(file);
    await waitFor(() => records.length > 0, 10_000, { what: 'the dry-run record' });
    expect(records[0]).toMatchObject({ said: 'would deny', rule: 'no git', outcome: null });
    expect(await out).toBe('');
    expect(answerer.tally).toMatchObject({ allowed: 0, denied: 0, wouldDeny: 1 });
    expect(w.audit().at(-1)).toMatchObject({
      action: 'rule',
      message: expect.stringContaining('would deny'),
      rule: { rule: 'no git', member: 'writer' },
    });
    expect(w.activity.getSnapshot().at(-1)?.message).toContain('asked as before');
  });

  it('a rules file that is a symlink answers nothing, and says why once', async () => {
    const real = rulesFile({ rules: [{ decision: 'allow' }] });
    const link = path.join(home, 'rules', 'link.json');
    fs.symlinkSync(real, link);
    const problems: (string | null)[] = [];
    const out = holdingHook(3);
    await heldNow();
    const { records } = follow(link, problems);
    await waitFor(() => problems.length > 0, 10_000, { what: 'the problem said' });
    expect(await out).toBe('');
    expect(records).toEqual([]);
    expect(problems).toEqual([expect.stringContaining('is a symlink')]);
  });
});
