import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run } from '../../src/model/model.js';
import { applyLiveness, indexPanes, livenessKey } from '../../src/store/liveness.js';
import { phaseSessionName as tinaPhaseSession } from '../../src/systems/tina/cycle.js';
import { TmuxClient } from '../../src/tmux/client.js';
import type { PaneInfo } from '../../src/tmux/client.js';
import type { SwarmServer } from '../../src/tmux/swarm.js';
import { procStart } from '../../src/tmux/proc-start.js';
import { tempDir } from '../helpers/box.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

function pane(paneId: string, session: string, extra: Partial<PaneInfo> = {}): PaneInfo {
  return { paneId, pid: 1, session, window: 0, index: 0, cwd: '/', dead: false, command: 'sleep', title: '', ...extra };
}

function member(name: string, paneId: string | null, extra: Partial<Member> = {}): Member {
  return { name, role: 'worker', model: 'm', paneId, state: 'unknown', lead: false, ...extra };
}

function runWith(members: Member[], system: Run['system'] = 'claude-team'): Run {
  return { ...emptyRun(system, 'feat.x', '/r', null), members };
}

describe('applyLiveness (pane list in, states out)', () => {
  const panes = [pane('%1', 's'), pane('%2', 's', { index: 1, dead: true })];

  it('alive when the pane exists, dead when it is gone or dead, in-process unchanged', () => {
    const run = runWith([
      member('a', '%1'),
      member('b', '%2'),
      member('c', '%9'),
      member('d', null, { state: 'in-process' }),
    ]);
    const states = applyLiveness(run, indexPanes(panes)).members.map((m) => m.state);
    expect(states).toEqual(['alive', 'dead', 'dead', 'in-process']);
  });

  it('unknown for everyone with a pane when there is no server', () => {
    const run = runWith([member('a', '%1', { state: 'alive' }), member('d', null, { state: 'in-process' })]);
    expect(applyLiveness(run, indexPanes(null)).members.map((m) => m.state)).toEqual(['unknown', 'in-process']);
  });

  it('returns the same run object when nothing changes', () => {
    const index = indexPanes(panes);
    // The first pass records the pane's first process (what actions check again); the next changes nothing.
    const run = applyLiveness(runWith([member('a', '%1', { state: 'alive' }), member('n', null)]), index);
    expect(run.members[0]?.paneProcess?.pid).toBe(1);
    expect(applyLiveness(run, index)).toBe(run);
  });

  it("gives a tina phase lead with no pane the first pane of tina-<feature>-phase-<N> ('.' becomes '_')", () => {
    const session = tinaPhaseSession('feat.x', '2');
    expect(session).toBe('tina-feat_x-phase-2');
    const run: Run = {
      ...runWith(
        [
          member('orch-lead', null, { lead: true, team: 'feat.x-orchestration' }),
          member('team-lead', null, { lead: true, team: 'feat.x-phase-2' }),
          member('worker', '%1', { team: 'feat.x-phase-2' }),
        ],
        'tina',
      ),
      phase: { current: '2', total: 3, status: 'executing' },
    };
    const list = [
      pane('%1', 'other'),
      pane('%8', session, { window: 1 }),
      pane('%7', session, { window: 0, index: 1 }),
      pane('%6', session, { window: 0, index: 0 }),
    ];
    const live = applyLiveness(run, indexPanes(list));
    expect(live.members[1]).toMatchObject({ name: 'team-lead', paneId: '%6', state: 'alive' });
    expect(live.members[0]).toMatchObject({ paneId: null, state: 'unknown' });
    // Without the session the lead keeps no pane.
    expect(applyLiveness(run, indexPanes([pane('%1', 'other')])).members[1]).toMatchObject({
      paneId: null,
      state: 'unknown',
    });
  });

  it('livenessKey ignores titles, commands and order but not death', () => {
    const a = [pane('%1', 's', { title: 'x' }), pane('%2', 's', { index: 1 })];
    const b = [pane('%2', 's', { index: 1, command: 'vim' }), pane('%1', 's', { title: 'y' })];
    expect(livenessKey(a)).toBe(livenessKey(b));
    expect(livenessKey(a)).not.toBe(livenessKey([pane('%1', 's'), pane('%2', 's', { index: 1, dead: true })]));
    expect(livenessKey(null)).not.toBe(livenessKey([]));
  });
});

describe('liveness against a real tmux server', () => {
  let tmux: TmuxFixture;
  let dir: string;
  beforeAll(async () => {
    tmux = await startTmux();
    dir = tempDir();
  });
  afterAll(async () => {
    await tmux.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('alive, dead (pane gone), dead (pane dead), in-process', async () => {
    const alive = await tmux.newSession('alive', dir);
    const gone = await tmux.newSession('gone', dir);
    await tmux.client.run(['set-option', '-g', 'remain-on-exit', 'on']);
    const dying = await tmux.newSession('dying', dir, 'true');
    await tmux.client.killPane(gone);
    const panes = await waitFor(
      async () => {
        const list = await tmux.client.listPanes();
        return list.find((p) => p.paneId === dying)?.dead ? list : null;
      },
      5000,
      { what: 'the pane running `true` to be dead' },
    );
    const run = runWith([
      member('a', alive),
      member('g', gone),
      member('d', dying),
      member('i', null, { state: 'in-process' }),
    ]);
    expect(applyLiveness(run, indexPanes(panes)).members.map((m) => m.state)).toEqual([
      'alive',
      'dead',
      'dead',
      'in-process',
    ]);
  });

  it('no server at all: listPanesOrNull is null and every pane member is unknown', async () => {
    const nobody = new TmuxClient({ name: `${tmux.name}-absent` });
    const panes = await nobody.listPanesOrNull();
    expect(panes).toBeNull();
    const run = runWith([member('a', '%1', { state: 'alive' })]);
    expect(applyLiveness(run, indexPanes(panes)).members[0]?.state).toBe('unknown');
  });
});

describe('applyLiveness with Claude Code swarm servers (which server a %N is on)', () => {
  // runWith's root is /r: panes working under it tie their server to the run.
  const swarm = (
    name: string,
    panes: PaneInfo[],
    lead: { alive: boolean; cwd: string | null } = { alive: false, cwd: null },
  ): SwarmServer => ({
    name,
    path: `/tmp/tmux-0/${name}`,
    leadPid: Number(name.split('-').pop()),
    leadAlive: lead.alive,
    leadCwd: lead.cwd,
    panes,
  });
  const one = (run: Run, own: PaneInfo[] | null, swarms: SwarmServer[]) => applyLiveness(run, indexPanes(own, swarms));

  it("keeps tower's own pane when no swarm server is tied to the run", () => {
    const run = runWith([member('w', '%1')]);
    const live = one(
      run,
      [pane('%1', 's', { cwd: '/elsewhere' })],
      [swarm('claude-swarm-7', [pane('%1', 'x', { cwd: '/other' })])],
    );
    expect(live.members[0]).toMatchObject({ state: 'alive' });
    expect(live.members[0]?.tmuxServer).toBeUndefined();
    expect(live.problems).toEqual([]);
  });

  it("takes the swarm server whose lead works in the run's directory when tower's %N works elsewhere", () => {
    const run = runWith([member('w', '%1', { cwd: '/r' })]);
    const live = one(
      run,
      [pane('%1', 's', { cwd: '/elsewhere' })],
      [swarm('claude-swarm-7', [pane('%1', 'x', { cwd: '/r/sub', dead: true })], { alive: true, cwd: '/r' })],
    );
    expect(live.members[0]).toMatchObject({ state: 'dead', tmuxServer: 'claude-swarm-7' });
  });

  it("never moves a member whose pane on tower's server fits it to a swarm server that fits alike: refused, naming both", () => {
    const run = runWith([member('w', '%1')]);
    const live = one(
      run,
      [pane('%1', 's', { cwd: '/r' })],
      [swarm('claude-swarm-7', [pane('%1', 'x', { cwd: '/r/sub' })], { alive: true, cwd: '/r' })],
    );
    expect(live.members[0]?.state).toBe('unknown');
    expect(live.members[0]?.tmuxServerUnknown).toContain("tower's own server and claude-swarm-7");
  });

  it('is unknown, with one problem naming both servers, when two are tied alike', () => {
    const run = runWith([member('w', '%1')]);
    const live = one(run, null, [
      swarm('claude-swarm-7', [pane('%1', 'x', { cwd: '/r' })]),
      swarm('claude-swarm-8', [pane('%1', 'y', { cwd: '/r' })]),
    ]);
    expect(live.members[0]?.state).toBe('unknown');
    expect(live.members[0]?.tmuxServerUnknown).toContain('claude-swarm-7 and claude-swarm-8');
    expect(live.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('w: pane %1 is on claude-swarm-7 and claude-swarm-8, both fit w'),
    ]);
  });

  it('is unknown when only a swarm server nothing ties to the run holds the %N', () => {
    const run = runWith([member('w', '%4')]);
    const live = one(run, [pane('%1', 's')], [swarm('claude-swarm-7', [pane('%4', 'x', { cwd: '/other' })])]);
    expect(live.members[0]?.state).toBe('unknown');
    expect(live.problems).toHaveLength(1);
  });

  it('livenessKey moves when a swarm pane dies or its server goes', () => {
    const s = swarm('claude-swarm-7', [pane('%1', 'x')]);
    const dead = swarm('claude-swarm-7', [pane('%1', 'x', { dead: true })]);
    expect(livenessKey([], [s])).not.toBe(livenessKey([], [dead]));
    expect(livenessKey([], [s])).not.toBe(livenessKey([], []));
  });

  it("seats an in-process lead on the server its hooks name: a swarm server's %N, or tower's own, never the other", () => {
    const lead = member('team-lead', null, { state: 'in-process', lead: true, sessionId: 's-1', cwd: '/r' });
    const own = [pane('%1', 'x', { cwd: '/r' })];
    const swarms = [swarm('claude-swarm-7', [pane('%1', 'y', { cwd: '/r', pid: 2 })])];
    const seatedOn = (server: string | null) => {
      const index = indexPanes(own, swarms)!;
      index.leadSeats = (id) => (id === 's-1' ? { paneId: '%1', server } : null);
      return applyLiveness(runWith([lead]), index).members[0];
    };
    expect(seatedOn('claude-swarm-7')).toMatchObject({
      state: 'alive',
      paneId: '%1',
      tmuxServer: 'claude-swarm-7',
      paneProcess: { pid: 2 },
    });
    const mine = seatedOn(null);
    expect(mine).toMatchObject({ state: 'alive', paneId: '%1', paneProcess: { pid: 1 } });
    expect(mine?.tmuxServer).toBeUndefined();
    // No seat: as the team file says.
    expect(applyLiveness(runWith([lead]), indexPanes(own, swarms)).members[0]).toBe(lead);
  });

  it('refuses an in-process lead tied to two servers by its process, naming both, whatever its hooks say', () => {
    // This process stands for the lead: in a pane of tower's server, with a swarm server named after it.
    const pid = process.pid;
    const lead = member('team-lead', null, {
      state: 'in-process',
      lead: true,
      team: 't',
      sessionId: 's-1',
      leadProcess: { pid, procStart: procStart(pid)!, pidSpace: null },
    });
    const index = indexPanes([pane('%4', 'x', { pid, cwd: '/r' })], [swarm(`claude-swarm-${pid}`, [])])!;
    index.leadSeats = () => ({ paneId: '%9', server: null });
    const live = applyLiveness(runWith([lead]), index);
    expect(live.members[0]).toMatchObject({ state: 'unknown', paneId: '%4' });
    expect(live.members[0]?.tmuxServerUnknown).toContain(`and claude-swarm-${pid} is named after it: tied to both`);
  });
});
