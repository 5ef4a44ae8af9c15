/**
 * Over generated boxes (tower's server and Claude Code swarm servers, some started again since,
 * panes whose ids repeat across servers and restarts, teams on each, some left from a server that
 * is gone, agents of no team), no action ever plans an effect on a pane whose identity does not
 * match the member it names: the pane is on a server listed now, it started before the member
 * joined, it works in the member's folder, it is on the server the team's lead process ties the
 * team to; and where the team recorded its lead's process, it is the member's own pane.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planAction } from '../../src/actions/index.js';
import { ActivityStore } from '../../src/kit/activity.js';
import type { ActionDetail } from '../../src/kit/detail.js';
import type { ActionRequest } from '../../src/kit/types.js';
import { emptyRun } from '../../src/model/model.js';
import type { Member, Run, Snapshot } from '../../src/model/model.js';
import { StartBook } from '../../src/store/pane-evidence.js';
import { applyLiveness, indexPanes } from '../../src/store/liveness.js';
import type { PaneInfo } from '../../src/tmux/client.js';
import { bootTimeMs, CLOCK_TICKS_PER_SECOND } from '../../src/tmux/proc-start.js';
import type { SwarmServer } from '../../src/tmux/swarm.js';
import { testContext } from '../helpers/context.js';
import { uniqueSocketName } from '../helpers/tmux.js';

/** Pids past any pid_max: /proc has no such process, so only the generated starts speak. */
const PID_BASE = 5_000_000;
const PROJECTS = ['/w/alpha', '/w/beta', '/w/alpha/sub'];
const BOOT = bootTimeMs() ?? 0;

interface WorldPane extends PaneInfo {
  server: string | null;
  startMs: number;
  /** `team/member` whose pane it is, or null (an agent of no team tower reads). */
  owner: string | null;
  alive: boolean;
}

interface World {
  panes: WorldPane[];
  swarms: string[];
  runs: Run[];
  /** The teams whose lead recorded its process, and where that process runs now. */
  leadTie: Map<string, string | null>;
}

/** A box as a sequence of events, each a pane made on a server (a restart numbers its panes from %0 again). */
const worldArb = fc
  .record({
    swarmCount: fc.integer({ min: 0, max: 2 }),
    ownRestarts: fc.integer({ min: 0, max: 2 }),
    teams: fc.array(
      fc.record({
        server: fc.integer({ min: 0, max: 2 }),
        generation: fc.integer({ min: 0, max: 2 }),
        members: fc.integer({ min: 1, max: 3 }),
        project: fc.integer({ min: 0, max: 2 }),
        recordsLead: fc.boolean(),
        paneGone: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
    strangers: fc.array(
      fc.record({ server: fc.integer({ min: 0, max: 2 }), project: fc.integer({ min: 0, max: 2 }) }),
      { maxLength: 6 },
    ),
    order: fc.array(fc.nat(), { maxLength: 20 }),
  })
  .map(buildWorld);

function buildWorld(g: {
  swarmCount: number;
  ownRestarts: number;
  teams: {
    server: number;
    generation: number;
    members: number;
    project: number;
    recordsLead: boolean;
    paneGone: boolean;
  }[];
  strangers: { server: number; project: number }[];
  order: number[];
}): World {
  let clock = Date.now() - 10 * 60_000;
  let pid = PID_BASE;
  const swarms = Array.from({ length: g.swarmCount }, (_, i) => `claude-swarm-${PID_BASE - 1000 - i}`);
  const servers: (string | null)[] = [null, ...swarms];
  const panes: WorldPane[] = [];
  const next = new Map<string | null, number>();
  const generation = new Map<string | null, number>(servers.map((s) => [s, 0]));
  const current = (s: string | null) => (s === null ? g.ownRestarts : 0);
  const makePane = (server: string | null, cwd: string, owner: string | null, alive: boolean): WorldPane => {
    const n = next.get(server) ?? 0;
    next.set(server, n + 1);
    clock += 1000;
    return {
      paneId: `%${n}`,
      pid: pid++,
      session: `s${pid}`,
      window: 0,
      index: 0,
      cwd,
      dead: false,
      command: 'claude',
      title: '',
      server,
      startMs: clock,
      owner,
      alive,
    };
  };
  const runs: Run[] = [];
  const leadTie = new Map<string, string | null>();
  // Generations in order: a restart of tower's server forgets its panes and numbers from %0 again.
  for (let gen = 0; gen <= g.ownRestarts; gen++) {
    if (gen > 0) {
      next.set(null, 0);
      generation.set(null, gen);
      for (const p of panes) if (p.server === null) p.alive = false;
    }
    g.teams.forEach((t, ti) => {
      const server = servers[t.server % servers.length] ?? null;
      const teamGen = Math.min(t.generation, current(server));
      if (teamGen !== gen || (server !== null && gen > 0)) return;
      const name = `team-${ti}`;
      const cwd = PROJECTS[t.project] as string;
      const members: Member[] = [];
      const mine: WorldPane[] = [];
      for (let k = 0; k < t.members; k++) {
        const member = k === 0 ? 'team-lead' : `worker-${k}`;
        const lead = k === 0;
        // A lead on a swarm server runs outside tmux: it has no pane; its teammates are on the swarm.
        if (lead && server !== null) {
          members.push({
            name: member,
            role: 'team-lead',
            model: 'm',
            paneId: null,
            state: 'unknown',
            lead,
            team: name,
          });
          continue;
        }
        const p = makePane(server, cwd, `${name}/${member}`, true);
        mine.push(p);
        members.push({
          name: member,
          role: lead ? 'team-lead' : 'worker',
          model: 'm',
          paneId: p.paneId,
          state: 'unknown',
          lead,
          team: name,
          joinedAt: p.startMs + 500,
          cwd,
        });
      }
      if (t.paneGone && mine.length > 1) (mine[mine.length - 1] as WorldPane).alive = false;
      if (t.recordsLead) {
        const leadMember = members[0] as Member;
        const leadPane = mine[0];
        const leadPid = server === null ? (leadPane?.pid ?? 0) : Number(server.slice('claude-swarm-'.length));
        if (leadPid > 0) {
          leadMember.leadProcess = { pid: leadPid, procStart: ticks(leadPane?.startMs ?? clock), pidSpace: null };
          leadTie.set(name, server);
        }
      }
      panes.push(...mine);
      const run = emptyRun('claude-team', name, cwd, null);
      run.members = members;
      runs.push(run);
    });
    g.strangers.forEach((s, si) => {
      if ((g.order[si] ?? 0) % (g.ownRestarts + 1) !== gen) return;
      const server = servers[s.server % servers.length] ?? null;
      if (server !== null && gen > 0) return;
      panes.push(makePane(server, PROJECTS[s.project] as string, null, true));
    });
  }
  // A team whose server restarted after it: its lead process is gone with it.
  for (const run of runs) {
    const lead = run.members[0];
    const p = panes.find((x) => x.owner === `${run.name}/team-lead`);
    if (lead?.leadProcess && p && !p.alive) leadTie.delete(run.name);
  }
  void generation;
  return { panes, swarms, runs, leadTie };
}

function ticks(ms: number): number {
  return Math.round(((ms - BOOT) * CLOCK_TICKS_PER_SECOND) / 1000);
}

/** Starts as the world says (and the lead processes of swarm teams, alive outside tmux). */
class WorldStarts extends StartBook {
  constructor(private readonly w: World) {
    super();
  }
  override startOf(pid: number): number | null {
    const p = this.w.panes.find((x) => x.pid === pid && x.alive);
    if (p) return ticks(p.startMs);
    for (const run of this.w.runs) {
      const lp = run.members[0]?.leadProcess;
      if (lp?.pid === pid && this.w.leadTie.has(run.name)) return lp.procStart;
    }
    return null;
  }
}

function snapshotOf(w: World): Snapshot {
  const live = w.panes.filter((p) => p.alive);
  const own = live.filter((p) => p.server === null);
  const swarms: SwarmServer[] = w.swarms.map((name) => ({
    name,
    path: `/nonexistent/${name}`,
    leadPid: Number(name.slice('claude-swarm-'.length)),
    leadAlive: true,
    leadCwd: null,
    panes: live.filter((p) => p.server === name),
  }));
  const index = indexPanes(own, swarms);
  if (index) index.starts = new WorldStarts(w);
  return { version: 1, generatedAt: '', runs: w.runs.map((r) => applyLiveness(r, index)), problems: [] };
}

/** Every pane a plan would act on, with the member it names. */
function targets(d: ActionDetail | undefined): { member: string; paneId: string; server: string | null }[] {
  if (!d) return [];
  switch (d.kind) {
    case 'terminate':
      return d.targets.map((t) => ({ member: t.name, paneId: t.paneId, server: t.server ?? null }));
    case 'send':
    case 'answer':
      return [{ member: d.member, paneId: d.paneId, server: d.server ?? null }];
    case 'attach':
      return [{ member: '', paneId: d.paneId, server: d.server ?? null }];
    case 'checkpoint':
    case 'rehydrate':
      return d.lead.target.startsWith('%')
        ? [{ member: d.lead.name, paneId: d.lead.target, server: d.lead.server ?? null }]
        : [];
    default:
      return [];
  }
}

describe('pane identity, over generated boxes', () => {
  it('no action plans an effect on a pane whose identity does not match the member', () => {
    const ctx = testContext({ claudeDir: '/nonexistent/claude', socketName: uniqueSocketName() });
    fc.assert(
      fc.property(worldArb, (w) => {
        const snapshot = snapshotOf(w);
        const env = { ctx, snapshot: () => snapshot, activity: new ActivityStore() };
        for (const run of snapshot.runs) {
          const requests: ActionRequest[] = [
            { kind: 'terminate', run: run.id },
            { kind: 'checkpoint', run: run.id },
            ...run.members.flatMap((m): ActionRequest[] => [
              { kind: 'terminate', run: run.id, members: [m.name] },
              { kind: 'send', run: run.id, members: [m.name], text: 'hello' },
              { kind: 'answer', run: run.id, members: [m.name], choice: '1' },
              { kind: 'attach', run: run.id, members: [m.name] },
            ]),
          ];
          for (const req of requests) {
            const plan = planAction(env, req);
            if (plan.refusal !== null) continue;
            for (const t of targets(plan.detail)) {
              const name = t.member || req.members?.[0] || run.members.find((m) => m.lead)?.name || '';
              const m = run.members.find((x) => x.name === name) as Member;
              const pane = w.panes.find((p) => p.alive && p.server === t.server && p.paneId === t.paneId);
              const where = `${req.kind} ${run.id} ${name} → ${t.paneId} on ${t.server ?? 'own'}`;
              expect(pane, where).toBeDefined();
              if (m.joinedAt !== undefined) expect(pane!.startMs, where).toBeLessThanOrEqual(m.joinedAt + 5000);
              if (m.cwd) expect(pane!.cwd.startsWith(m.cwd), where).toBe(true);
              if (w.leadTie.has(run.name)) {
                expect(t.server, where).toBe(w.leadTie.get(run.name));
                expect(pane!.owner, where).toBe(`${run.name}/${name}`);
              }
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
