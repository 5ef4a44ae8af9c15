/**
 * A run whose system names no pane (harness, SAGE, dotagent) is seated in the panes of tower's own
 * server that work in its folder: each with its process recorded, never a dead pane, one elsewhere,
 * a swarm server's, or a tina or Claude team run's.
 */
import { describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { claimedPanes, FOLDER_PANE_ROLE, MAX_FOLDER_PANES } from '../../src/store/folder-panes.js';
import { applyLiveness, indexPanes } from '../../src/store/liveness.js';
import type { PaneInfo } from '../../src/tmux/client.js';

function pane(paneId: string, session: string, cwd: string, extra: Partial<PaneInfo> = {}): PaneInfo {
  // The test's own pid: its start is read from /proc as a pane's first process's is.
  return {
    paneId,
    pid: process.pid,
    session,
    window: 0,
    index: 0,
    cwd,
    dead: false,
    command: 'node',
    title: '',
    ...extra,
  };
}

const run = (system: Run['system'], root = '/w/sheets'): Run => emptyRun(system, 'sheets', root, `${root}/.papercusp`);

describe('the panes working in a run folder', () => {
  it('seat a harness, SAGE or dotagent run: named by session, its process recorded, alive', () => {
    const panes = [
      pane('%1', 'papercusp-sheets', '/w/sheets'),
      pane('%2', 'other', '/w/sheets-old'),
      pane('%3', 'deep', '/w/sheets/src'),
      pane('%4', 'gone', '/w/sheets', { dead: true }),
    ];
    for (const system of ['harness', 'sage', 'dotagent'] as const) {
      const members = applyLiveness(run(system), indexPanes(panes)).members;
      expect(members.map((m) => [m.name, m.paneId, m.state, m.role, m.lead])).toEqual([
        ['deep', '%3', 'alive', FOLDER_PANE_ROLE, true],
        ['papercusp-sheets', '%1', 'alive', FOLDER_PANE_ROLE, true],
      ]);
      expect(members[0]?.paneProcess?.pid).toBe(process.pid);
      expect(members[0]?.paneProcess?.start).toEqual(expect.any(Number));
    }
  });

  it("never seat a pane a team names as its member's: that pane is the member's alone", () => {
    const panes = [pane('%1', 'crew', '/w/sheets'), pane('%2', 'runner', '/w/sheets')];
    const team = { members: [{ paneId: '%1', tmuxServer: null }] };
    const index = indexPanes(panes)!;
    index.claimed = claimedPanes([], [['crew', team]]);
    expect(applyLiveness(run('harness'), index).members.map((m) => m.paneId)).toEqual(['%2']);
    // A swarm server's %1 is another pane: it leaves tower's own %1 free.
    index.claimed = claimedPanes([], [['crew', { members: [{ paneId: '%1', tmuxServer: '/tmp/swarm' }] }]]);
    expect(applyLiveness(run('harness'), index).members.map((m) => m.paneId)).toEqual(['%1', '%2']);
  });

  it('name panes that share a session by window and pane, and take at most a few', () => {
    const panes = Array.from({ length: MAX_FOLDER_PANES + 2 }, (_, i) =>
      pane(`%${i}`, 'run', '/w/sheets', { index: i }),
    );
    const members = applyLiveness(run('harness'), indexPanes(panes)).members;
    expect(members.map((m) => m.name)).toEqual(Array.from({ length: MAX_FOLDER_PANES }, (_, i) => `run:0.${i}`));
  });

  it('leave a run with none as it is, and never seat tina or Claude team runs or a swarm server', () => {
    const elsewhere = [pane('%1', 's', '/w/other')];
    expect(applyLiveness(run('harness'), indexPanes(elsewhere)).members).toEqual([]);
    expect(applyLiveness(run('harness'), null).members).toEqual([]);
    const here = [pane('%1', 's', '/w/sheets')];
    expect(applyLiveness(run('tina'), indexPanes(here)).members).toEqual([]);
    expect(applyLiveness(run('claude-team'), indexPanes(here)).members).toEqual([]);
    const swarmOnly = indexPanes(null, [
      { name: 'claude-swarm-1', socket: '/s', leadPid: 1, leadAlive: true, leadCwd: '/w/sheets', panes: here },
    ] as never);
    expect(applyLiveness(run('harness'), swarmOnly).members).toEqual([]);
  });
});
