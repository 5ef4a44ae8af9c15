/**
 * Claude Code's hook events as the first source of a member's activity: real payloads fed to the
 * installed hook line (as Claude Code runs it: `sh`, the JSON on stdin, $TMUX_PANE of the agent),
 * read back for a member whose pane lives on a real private tmux server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookCommand, withHooks } from '../../src/commands/hooks-settings.js';
import { emptyRun } from '../../src/model/model.js';
import type { Snapshot } from '../../src/model/model.js';
import { snapshotWithActivity } from '../../src/store/this-box.js';
import { HookEvents, WORKING_TTL_MS, hookEventsFile, stateOfEvent } from '../../src/store/hook-events.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';

const tempDir = tempDirsPerTest('tower-hook-events-');
/** Lines without a server (the hook run outside tmux here) speak for tower's own server's panes only. */
const OWN = '/nonexistent/tmux-0/own';
let tmux: TmuxFixture;
beforeAll(async () => {
  tmux = await startTmux();
});
afterAll(async () => {
  await tmux.kill();
});

/** Runs the installed hook line for one event of the agent in `pane`. */
function fire(state: string, pane: string, event: string, extra: Record<string, unknown> = {}): void {
  const json = JSON.stringify({
    session_id: 's-1',
    transcript_path: '/t.jsonl',
    cwd: '/srv/app',
    hook_event_name: event,
    ...extra,
  });
  execFileSync('sh', ['-c', hookCommand()], {
    input: json,
    env: { PATH: process.env.PATH, HOME: '/nonexistent', XDG_STATE_HOME: state, TMUX_PANE: pane },
  });
}

describe('hook events', () => {
  it('say working from a prompt until Stop, waiting at a permission prompt, and nothing for other notices', () => {
    expect(stateOfEvent('UserPromptSubmit', null)).toEqual({ activity: 'working', cue: 'interrupt-hint' });
    expect(stateOfEvent('PostToolUse', null)?.activity).toBe('working');
    expect(stateOfEvent('Stop', null)).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(stateOfEvent('PermissionRequest', null)).toEqual({ activity: 'waiting', cue: 'question' });
    expect(stateOfEvent('Notification', 'permission_prompt')).toEqual({ activity: 'waiting', cue: 'question' });
    expect(stateOfEvent('Notification', 'auth_success')).toBeNull();
    expect(stateOfEvent('SessionEnd', null)?.activity).toBe('idle');
  });

  it('are followed as they are appended, per pane, and a working state expires', () => {
    const state = path.join(tempDir(), 'state');
    const hooks = new HookEvents(hookEventsFile(path.join(state, 'tower')));
    expect(hooks.refresh()).toBe(false);
    fire(state, '%4', 'UserPromptSubmit', { prompt: 'go' });
    expect(hooks.refresh()).toBe(true);
    const now = Date.now();
    expect(hooks.stateOf(OWN, '%4', now, true)).toMatchObject({ activity: 'working', event: 'UserPromptSubmit' });
    expect(hooks.stateOf(OWN, '%4', now + WORKING_TTL_MS + 60_000, true)).toBeNull();
    fire(state, '%4', 'Notification', {
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission to use Bash',
    });
    fire(state, '%5', 'Stop');
    hooks.refresh();
    expect(hooks.stateOf(OWN, '%4', Date.now(), true)).toMatchObject({ activity: 'waiting', cue: 'question' });
    expect(hooks.stateOf(OWN, '%5', Date.now(), true)).toMatchObject({ activity: 'waiting', cue: 'prompt' });
    expect(hooks.stateOf(OWN, '%6', Date.now(), true)).toBeNull();
  });

  it('read a teammate finishing a task as still working, and going idle as waiting', () => {
    // Payloads as Claude Code's hook reference gives them for agent teams (code.claude.com/docs/en/hooks).
    const state = path.join(tempDir(), 'state');
    const hooks = new HookEvents(hookEventsFile(path.join(state, 'tower')));
    const team = { permission_mode: 'default', teammate_name: 'implementer', team_name: 'my-project' };
    fire(state, '%7', 'TaskCompleted', {
      ...team,
      task_id: 'task-001',
      task_subject: 'Implement user authentication',
      task_description: 'Add login and signup endpoints',
    });
    expect(hooks.refresh()).toBe(true);
    expect(hooks.stateOf(OWN, '%7', Date.now(), true)).toMatchObject({
      activity: 'working',
      cue: 'interrupt-hint',
      event: 'TaskCompleted',
    });
    fire(state, '%7', 'TeammateIdle', team);
    expect(hooks.refresh()).toBe(true);
    expect(hooks.stateOf(OWN, '%7', Date.now(), true)).toMatchObject({
      activity: 'waiting',
      cue: 'prompt',
      event: 'TeammateIdle',
    });
    expect(hooks.transcriptOf(OWN, '%7', true)).toBe('/t.jsonl');
  });

  it('are both installed by tower hooks install', () => {
    const added = withHooks({});
    expect('added' in added && added.added).toEqual(
      expect.arrayContaining(['TaskCompleted', 'TeammateIdle', 'PermissionRequest']),
    );
  });

  it('give a member on a real pane its state, with the source; the screen is read where no hook spoke', async () => {
    const state = path.join(tempDir(), 'state');
    const pane = await tmux.newSession('agent', tempDir(), 'sh -c "echo ready; sleep 100000"');
    const other = await tmux.newSession('quiet', tempDir(), 'sh -c "echo hello; sleep 100000"');
    const run = emptyRun('claude-team', 'docs', null, null);
    run.members = [
      { name: 'writer-1', role: 'w', model: 'm', paneId: pane, state: 'alive', lead: false },
      { name: 'writer-2', role: 'w', model: 'm', paneId: other, state: 'alive', lead: false },
    ];
    const snap: Snapshot = { version: 1, generatedAt: new Date().toISOString(), runs: [run], problems: [] };
    fire(state, pane, 'UserPromptSubmit', { prompt: 'fix the docs' });
    const hooks = () => new HookEvents(hookEventsFile(path.join(state, 'tower')));
    let out = await snapshotWithActivity(tmux.client, snap, hooks());
    expect(out.runs[0]?.members.map((m) => [m.name, m.activity, m.activitySource])).toEqual([
      ['writer-1', 'working', 'hooks'],
      ['writer-2', out.runs[0]?.members[1]?.activity, 'screen'],
    ]);
    fire(state, pane, 'Stop');
    out = await snapshotWithActivity(tmux.client, snap, hooks());
    expect(out.runs[0]?.members[0]).toMatchObject({
      activity: 'waiting',
      activityCue: 'prompt',
      activitySource: 'hooks',
    });
    expect(
      fs
        .readFileSync(hookEventsFile(path.join(state, 'tower')), 'utf8')
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(2);
  });
});

describe('a member working far longer than any turn', () => {
  it('is flagged as a warning on its run, and one that just started is not', async () => {
    const { longTurns, LONG_TURN_MS } = await import('../../src/store/member-activity.js');
    const now = Date.parse('2026-11-25T12:00:00Z');
    const member = (name: string, minutesAgo: number, activity: 'working' | 'waiting') => ({
      name,
      role: 'w',
      model: 'm',
      paneId: '%1',
      state: 'alive' as const,
      lead: false,
      activity,
      activitySince: new Date(now - minutesAgo * 60_000).toISOString(),
    });
    expect(LONG_TURN_MS).toBe(30 * 60_000);
    expect(longTurns([member('a', 45, 'working'), member('b', 5, 'working'), member('c', 90, 'waiting')], now)).toEqual(
      ['a has shown working for 45 min, longer than any turn: out of quota, or at a login or trust screen?'],
    );
  });
});

describe('the context of every agent hooks report', () => {
  it('comes from the transcript its hook events name, teammates included', async () => {
    const dir = tempDir();
    const state = path.join(dir, 'state');
    const transcript = path.join(dir, 'projects', '-srv-app', 'teammate-session.jsonl');
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    // An assistant line shaped as Claude Code writes it (see test/systems/transcript.test.ts).
    fs.writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'assistant', requestId: 'req_1', message: { id: 'msg_1', model: 'claude-sonnet-4-5', usage: { input_tokens: 10, cache_creation_input_tokens: 90, cache_read_input_tokens: 99_900, output_tokens: 5 } } })}\n`,
    );
    const pane = await tmux.newSession('teammate', dir, 'sh -c "echo hi; sleep 100000"');
    fire(state, pane, 'PostToolUse', { transcript_path: transcript, tool_name: 'Bash' });
    const run = emptyRun('claude-team', 'docs', null, null);
    run.members = [{ name: 'writer-1', role: 'w', model: 'm', paneId: pane, state: 'alive', lead: false }];
    const snap: Snapshot = { version: 1, generatedAt: new Date().toISOString(), runs: [run], problems: [] };
    const out = await snapshotWithActivity(
      tmux.client,
      snap,
      new HookEvents(hookEventsFile(path.join(state, 'tower'))),
    );
    expect(out.runs[0]?.members[0]).toMatchObject({
      context: { usedPct: 50, tokens: 100_000, window: 200_000 },
      tokens: { input: 10, output: 5, cacheRead: 99_900, cacheWrite: 90 },
    });
  });
});
