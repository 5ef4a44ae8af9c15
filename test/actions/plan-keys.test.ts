/**
 * An answer's and a line's plan shows the very tmux calls that will be typed, in the member's own CLI:
 * the confirm and the dry run list what goes into the pane, never Claude Code's keys for another CLI.
 */
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { planAction } from '../../src/actions/index.js';
import { AGENT_CLIS, waysOf } from '../../src/agents/registry.js';
import type { AgentId, Member, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

let w: ActionWorld;

/** A team whose one member runs `agent` in %4 and shows a prompt with `options`. */
function team(agent: AgentId, options: { key: string; label: string }[]): Run {
  const root = tempDir('tower-project-');
  const run = emptyRun('claude-team', 'mixed', root, path.join(root, '.claude'));
  const member: Member = {
    name: 'coder',
    role: 'worker',
    model: '',
    paneId: '%4',
    state: 'alive',
    lead: true,
    team: 'mixed',
    agent,
    prompt: { question: 'Run it?', subject: ['$ touch x'], options, signature: 'sig' },
  };
  run.members = [member];
  return run;
}

/** The tmux calls of a plan, each as its text. */
function tmuxCalls(plan: ReturnType<typeof planAction>): string[] {
  expect(plan.refusal).toBeNull();
  return plan.effects.filter((e) => e.kind === 'tmux').map((e) => e.text);
}

beforeEach(() => {
  w = actionWorld(uniqueSocketName(), tempDir('tower-home-'));
});

describe('the keys a plan shows', () => {
  it('Claude Code: the digit, then a raw carriage return', () => {
    w.setSnapshot(
      snapshotOf(
        team('claude-code', [
          { key: '1', label: 'Yes' },
          { key: '2', label: 'No' },
        ]),
      ),
    );
    const calls = tmuxCalls(
      planAction(w.env, { kind: 'answer', run: 'claude-team:mixed', members: ['coder'], choice: '1' }),
    );
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/send-keys -t %4 -l -- 1$/);
    expect(calls[1]).toMatch(/send-keys -t %4 -H 0D$/);
  });

  it('Codex: the key alone, no carriage return after it', () => {
    const options = [
      { key: '1', label: 'Yes, proceed (y)' },
      { key: '3', label: 'No, and tell Codex what to do differently (esc)' },
    ];
    w.setSnapshot(snapshotOf(team('codex', options)));
    const calls = tmuxCalls(
      planAction(w.env, { kind: 'answer', run: 'claude-team:mixed', members: ['coder'], choice: 'y' }),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/send-keys -t %4 -l -- 1$/);
  });

  it('opencode: Reject is Escape; Allow once is the selection moved and read back, then Enter', () => {
    const options = [
      { key: '1', label: 'Allow once' },
      { key: '2', label: 'Allow always' },
      { key: '3', label: 'Reject' },
    ];
    w.setSnapshot(snapshotOf(team('opencode', options)));
    const reject = planAction(w.env, { kind: 'answer', run: 'claude-team:mixed', members: ['coder'], choice: 'n' });
    expect(tmuxCalls(reject)).toEqual([expect.stringMatching(/send-keys -t %4 Escape$/)]);
    const once = planAction(w.env, { kind: 'answer', run: 'claude-team:mixed', members: ['coder'], choice: '1' });
    expect(tmuxCalls(once)).toEqual([expect.stringMatching(/send-keys -t %4 Enter$/)]);
    expect(once.effects.map((e) => e.text).join('\n')).toMatch(/move the selection onto "Allow once" with .*Right/);
  });

  it('a line to Codex goes as one bracketed paste, then a carriage return', () => {
    w.setSnapshot(
      snapshotOf({ ...team('codex', []), members: [{ ...team('codex', []).members[0]!, prompt: undefined }] }),
    );
    const calls = tmuxCalls(planAction(w.env, { kind: 'send', run: 'claude-team:mixed', text: 'go on' }));
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatch(/set-buffer -b 'tower-<id>' -- 'go on'$/);
    expect(calls[1]).toMatch(/paste-buffer -p -d -b 'tower-<id>' -t %4$/);
    expect(calls[2]).toMatch(/send-keys -t %4 -H 0D$/);
  });

  it('a line to Claude Code is typed literally, then a raw carriage return', () => {
    const run = team('claude-code', []);
    delete run.members[0]!.prompt;
    w.setSnapshot(snapshotOf(run));
    const calls = tmuxCalls(planAction(w.env, { kind: 'send', run: 'claude-team:mixed', text: 'go on' }));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatch(/send-keys -t %4 -l -- 'go on'$/);
    expect(calls[1]).toMatch(/send-keys -t %4 -H 0D$/);
  });

  it("says each CLI's own dialog age, the one its run waits: 0.6 s for Claude Code and Codex, 0.3 s for the others", async () => {
    const said: Record<string, string> = {};
    for (const agent of ['claude-code', 'codex', 'opencode', 'gemini-cli'] as const) {
      w.setSnapshot(snapshotOf(team(agent, [{ key: '2', label: 'No' }])));
      const plan = planAction(w.env, { kind: 'answer', run: 'claude-team:mixed', members: ['coder'], choice: '2' });
      expect(plan.refusal).toBeNull();
      said[agent] = /drawn at least ([\d.]+ s) ago/.exec(plan.effects.map((e) => e.text).join('\n'))?.[1] ?? 'none';
    }
    expect(said).toEqual({ 'claude-code': '0.6 s', codex: '0.6 s', opencode: '0.3 s', 'gemini-cli': '0.3 s' });
    for (const cli of AGENT_CLIS) expect((await waysOf(cli)).typing.minDialogAgeMs).toBe(cli.keys.minDialogAgeMs);
  });
});
