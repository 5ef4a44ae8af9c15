/**
 * Rules answering the real Claude Code 2.1.332's permission requests, held by tower's hook, in one
 * CLI launch: a command a rule allows runs and its dialog closes; one a rule denies does not run;
 * one no rule matches, and a compound command with one part no rule allows, are left to the
 * operator (no answer file, no key typed, the dialog still up). Each decision is an audit line
 * naming the rule, the request and its whole input.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleAnswerer } from '../../src/actions/rule-answer.js';
import type { RuleRecord } from '../../src/actions/rule-answer.js';
import { withHooks } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { RulesSource } from '../../src/rules/load.js';
import { ActivityOverlay } from '../../src/store/activity-overlay.js';
import { PaneWatch } from '../../src/store/captures.js';
import { snapshotOf } from '../actions/kit.js';
import { actingWorld } from '../helpers/claude-cli/acting-world.js';
import type { NotingClient } from '../helpers/claude-cli/acting-world.js';
import { startClaude, type ClaudeRun } from '../helpers/claude-cli/launch.js';
import type { SeenRequest, Turn } from '../helpers/claude-cli/messages-api.js';
import { DIALOG_QUESTION } from '../helpers/claude-cli/scenarios.js';
import { waitFor } from '../helpers/wait-for.js';

/** The text the user typed in the last message (not tool results: an interrupted one rides along with it). */
function typed(r: SeenRequest): string {
  const last = (r.messages as { role?: string; content?: unknown }[]).findLast((m) => m.role === 'user');
  if (typeof last?.content === 'string') return last.content;
  return Array.isArray(last?.content)
    ? last.content.map((b: { type?: string; text?: unknown }) => (b.type === 'text' ? String(b.text) : '')).join('\n')
    : '';
}

/** A turn asking to run `command` with Bash when the user has just typed `trigger`. */
function commandTurn(trigger: string, command: string): Turn {
  return {
    when: (r) => typed(r).includes(trigger),
    content: [{ type: 'tool_use', name: 'Bash', input: { command, description: `Step ${trigger}` } }],
  };
}

const RULES = {
  rules: [
    { name: 'echo', decision: 'allow', tool: 'Bash', command: 'echo *' },
    { name: 'no touch', decision: 'deny', tool: 'Bash', command: 'touch *' },
  ],
};

let c: ClaudeRun;
let tmux: NotingClient;
let answerer: RuleAnswerer;
let held: string;
const records: RuleRecord[] = [];
let refresh: () => Promise<void>;

beforeAll(async () => {
  const hooked = withHooks({}, 120);
  if (!('settings' in hooked)) throw new Error(hooked.refusal);
  c = await startClaude({
    columns: 120,
    rows: 40,
    settings: { hooks: hooked.settings.hooks },
    script: [
      commandTurn('step allowed', 'echo a > out-a.txt'),
      commandTurn('step denied', 'touch out-b.txt'),
      commandTurn('step unmatched', 'printf c > out-c.txt'),
      commandTurn('step compound', 'echo d > out-d.txt && printf e > out-e.txt'),
    ],
  });
  const world = actingWorld(c, 'tower-cc-rules-');
  tmux = world.tmux;
  const w = world.w;
  w.ctx.env = { ...w.ctx.env, XDG_STATE_HOME: path.join(c.home, '.local/state') };
  const team: Run = {
    ...emptyRun('claude-team', 'session', c.project, null),
    members: [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: c.paneId, state: 'alive', lead: true }],
  };
  const watch = new PaneWatch(tmux);
  refresh = async () => {
    await watch.round([c.paneId], null);
    w.setSnapshot(new ActivityOverlay(watch).apply(snapshotOf(team)));
  };
  const rulesDir = path.join(c.dir, 'rules');
  fs.mkdirSync(rulesDir, { mode: 0o700 });
  fs.writeFileSync(path.join(rulesDir, 'rules.json'), JSON.stringify(RULES), { mode: 0o600 });
  const source = new RulesSource(path.join(rulesDir, 'rules.json'));
  answerer = new RuleAnswerer(
    w.env,
    () => source.current(),
    (r) => records.push(r),
    'this-box',
  );
  held = path.join(c.home, '.local/state/tower/hooks/held');
  await c.ready();
}, 120_000);

afterAll(async () => {
  await c?.stop();
});

/** Says `trigger`, waits for the dialog and the hook's hold of a request not seen before; its id. */
const seen = new Set<string>();
async function askAndHold(trigger: string): Promise<string> {
  await c.ready();
  await c.submit(trigger);
  await c.waitForScreen(DIALOG_QUESTION);
  let id = '';
  await waitFor(
    () => {
      const fresh = fs.existsSync(held) ? fs.readdirSync(held).filter((f) => f.endsWith('.req') && !seen.has(f)) : [];
      id = fresh[0]?.slice(0, -4) ?? '';
      return id !== '';
    },
    20_000,
    { what: 'the hook to hold the request' },
  );
  seen.add(`${id}.req`);
  await refresh();
  return id;
}

function auditLines(): Record<string, unknown>[] {
  const file = path.join(c.home, '.local/state/tower/audit.jsonl');
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
}

/** Leaves an open dialog the way the operator would: No, in the pane. */
async function dismiss(): Promise<void> {
  await c.keys('Escape');
  await waitFor(async () => !(await c.screen()).includes(DIALOG_QUESTION), 20_000, { what: 'the dialog to close' });
}

// One launch for every case: the CLI's start is the slow part (more than 30 s on a busy machine).
describe('rules answering the real CLI through the hook', { timeout: 120_000 }, () => {
  it('allows by rule: the command runs, the dialog closes, no key typed, an audit line names the rule', async () => {
    const id = await askAndHold('step allowed');
    await answerer.look();
    await waitFor(() => fs.existsSync(path.join(c.project, 'out-a.txt')), 20_000, { what: 'the command to run' });
    await waitFor(async () => !(await c.screen()).includes(DIALOG_QUESTION), 20_000, { what: 'the dialog to close' });
    expect(records.at(-1)).toMatchObject({ said: 'allowed', rule: 'echo', request: id, outcome: 'done' });
    expect(answerer.tally.allowed).toBe(1);
    expect(tmux.sent).toEqual([]);
    expect(auditLines().at(-1)).toMatchObject({
      action: 'answer',
      outcome: 'done',
      message: expect.stringContaining('by echo'),
      rule: { rule: 'echo', request: id, input: expect.stringContaining('echo a > out-a.txt'), box: 'this-box' },
    });
  });

  it('denies by rule: the command does not run, and the member is shown denied with the rule', async () => {
    const id = await askAndHold('step denied');
    await answerer.look();
    await waitFor(async () => !(await c.screen()).includes(DIALOG_QUESTION), 20_000, { what: 'the dialog to close' });
    expect(records.at(-1)).toMatchObject({ said: 'denied', rule: 'no touch', request: id, outcome: 'done' });
    expect(answerer.denials.get(`${'claude-team:session'}/team-lead`)?.rule).toBe('no touch');
    expect(fs.existsSync(path.join(c.project, 'out-b.txt'))).toBe(false);
    expect(tmux.sent).toEqual([]);
  });

  it('asks when no rule matches: no answer written, no key typed, the dialog stays', async () => {
    const before = records.length;
    const id = await askAndHold('step unmatched');
    await answerer.look();
    expect(records.length).toBe(before);
    expect(fs.existsSync(path.join(held, `${id}.answer`))).toBe(false);
    expect(await c.screen()).toContain(DIALOG_QUESTION);
    expect(tmux.sent).toEqual([]);
    await dismiss();
    expect(fs.existsSync(path.join(c.project, 'out-c.txt'))).toBe(false);
  });

  it('asks for a compound command with one part no rule allows', async () => {
    const before = records.length;
    const id = await askAndHold('step compound');
    await answerer.look();
    expect(records.length).toBe(before);
    expect(fs.existsSync(path.join(held, `${id}.answer`))).toBe(false);
    expect(await c.screen()).toContain(DIALOG_QUESTION);
    expect(tmux.sent).toEqual([]);
    await dismiss();
    expect(fs.existsSync(path.join(c.project, 'out-d.txt'))).toBe(false);
  });
});
