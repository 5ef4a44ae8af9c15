/**
 * Agents of a project from the pane listing: a pane running an agent CLI tower knows that no run has
 * is a member of the run of its folder, several in one folder one run; a pane a run has (by its
 * `%N`, or as a seat of a run that takes its folder's panes), a Claude Code pane (its session files
 * list it), a plain process and a dead pane are not listed. The pane lists are data as tmux gives
 * them; the processes read from /proc are real (this test's own, a `sleep` it starts).
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { loadLoneAgents, type LoneAgentLister } from '../../src/store/lone-agents.js';
import type { SourceRead } from '../../src/store/readers.js';
import type { PaneInfo } from '../../src/tmux/client.js';

let list: LoneAgentLister;
let sleeper: ReturnType<typeof spawn>;

function pane(paneId: string, cwd: string, command: string, extra: Partial<PaneInfo> = {}): PaneInfo {
  return {
    paneId,
    pid: process.pid,
    session: 's',
    window: 0,
    index: 0,
    cwd,
    dead: false,
    command,
    title: '',
    ...extra,
  };
}

function read(run: Run): [string, SourceRead] {
  return [
    `${run.system}:${run.root}`,
    { source: { system: run.system, root: run.root!, stateDir: run.root! }, run, teamNames: [] },
  ];
}

beforeAll(async () => {
  list = await loadLoneAgents();
  sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
});
afterAll(() => {
  sleeper.kill('SIGKILL');
});

describe('agents of a project', () => {
  it('lists CLI panes no run has as runs of their folders, one member per pane', () => {
    const out = list(
      [pane('%1', '/w/api', 'codex'), pane('%2', '/w/api', 'opencode'), pane('%3', '/w/web', 'codex')],
      [],
      [],
    );
    expect(out.map(([key, r]) => [key, r.run.system, r.run.name, r.run.root])).toEqual([
      ['agents:/w/api', 'agents', 'api', '/w/api'],
      ['agents:/w/web', 'agents', 'web', '/w/web'],
    ]);
    expect(out[0]![1].run.members.map((m) => [m.paneId, m.name, m.lead, m.cwd])).toEqual([
      ['%1', 'codex', true, '/w/api'],
      ['%2', 'opencode', true, '/w/api'],
    ]);
  });

  it('leaves out a pane a run has, a seat of a run with no members, Claude Code, a plain process and a dead pane', () => {
    const team = {
      ...emptyRun('claude-team', 't', '/w/api', null),
      members: [{ name: 'a', role: 'r', model: 'm', paneId: '%1', state: 'alive' as const, lead: true }],
    };
    const harness = emptyRun('harness', 'sheets', '/w/sheets', '/w/sheets/.harness');
    const panes = [
      pane('%1', '/w/api', 'codex'),
      pane('%2', '/w/sheets/src', 'codex'),
      pane('%3', '/w/lone', 'claude'),
      pane('%4', '/w/idle', 'sleep', { pid: sleeper.pid! }),
      pane('%5', '/w/gone', 'codex', { dead: true }),
      pane('%6', '/w/left', 'codex'),
    ];
    const out = list(panes, [read(team), read(harness)], []);
    expect(out.map(([key, r]) => [key, r.run.members.map((m) => m.paneId)])).toEqual([['agents:/w/left', ['%6']]]);
  });
});
