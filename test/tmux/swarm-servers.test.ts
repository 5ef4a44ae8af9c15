/**
 * Claude Code's own tmux servers (`claude-swarm-<leadPid>`), for real: tower's server and a swarm
 * server in a private TMUX_TMPDIR both hold a `%1`; the team's `%1` is the swarm's. Liveness,
 * captures, send and terminate must all reach the swarm's `%1` and never tower's; a `%1` that
 * nothing ties to one server is unknown and refused; a dead socket file costs nothing.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { ActivityStore } from '../../src/kit/activity.js';
import type { ActionEnv } from '../../src/kit/types.js';
import type { Member, Snapshot } from '../../src/model/model.js';
import { PaneWatch } from '../../src/store/captures.js';
import { memberPanes } from '../../src/store/pane-keys.js';
import { createWatchedStore } from '../../src/store/live-activity.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { SwarmScanner } from '../../src/tmux/swarm.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TestContext } from '../helpers/context.js';
import { testContext } from '../helpers/context.js';
import { newSessionPane, startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const TEAM = 'swarm-team';
const RUN = `claude-team:${TEAM}`;
/** A pane that says who it is, then echoes what is typed into it. */
/** An agent that says who it is, then shows a prompt (a line is typed only at one) and echoes what it is sent. */
const ECHO = (who: string) => `bash -c 'echo ${who}; printf "❯ "; exec cat'`;

interface Swarm {
  name: string;
  socket: string;
  client: TmuxClient;
}

let cleanups: (() => Promise<void> | void)[] = [];
let tower: TmuxFixture;
let tmuxTmp: string;
let socketDir: string;
let root: string;
let home: string;
let ctx: TestContext;

/** A process standing in for a lead, working in `cwd`; killed after the test. */
function startLead(cwd: string): ChildProcess {
  const child = spawn('sleep', ['100000'], { cwd, stdio: 'ignore' });
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  return child;
}

/** A swarm server named after `pid` in the private socket dir, its first pane in `cwd`; killed after the test. */
async function startSwarm(pid: number, cwd: string): Promise<Swarm> {
  const name = `claude-swarm-${pid}`;
  const socket = path.join(socketDir, name);
  const client = new TmuxClient({ path: socket }, 5000);
  cleanups.push(async () => {
    await client.killServer().catch(() => {});
    fs.rmSync(socket, { force: true });
  });
  await client.run([
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    'lead',
    '-c',
    cwd,
    '-x',
    '120',
    '-y',
    '30',
    'sleep 100000',
  ]);
  return { name, socket, client };
}

function writeTeam(workerPane: string): void {
  const member = (name: string, agentType: string, tmuxPaneId: string) => ({
    agentId: `${name}@${TEAM}`,
    name,
    agentType,
    model: 'claude-sonnet-4',
    joinedAt: Date.now(),
    tmuxPaneId,
    cwd: root,
    subscriptions: [],
  });
  writeFile(path.join(ctx.claudeDir, 'teams', TEAM, 'config.json'), {
    name: TEAM,
    createdAt: Date.now(),
    leadAgentId: `team-lead@${TEAM}`,
    members: [member('team-lead', 'team-lead', ''), member('worker-1', 'general-purpose', workerPane)],
  });
}

function worker(s: Snapshot): Member {
  const m = s.runs.find((r) => r.id === RUN)?.members.find((x) => x.name === 'worker-1');
  if (!m) throw new Error(`no worker-1 in ${JSON.stringify(s.runs.map((r) => r.id))}`);
  return m;
}

function actionEnv(snapshot: Snapshot): ActionEnv {
  return { ctx, snapshot: () => snapshot, activity: new ActivityStore() };
}

async function screenOf(client: TmuxClient, paneId: string): Promise<string> {
  return client.capturePane(paneId, 50);
}

beforeEach(async () => {
  cleanups = [];
  home = tempDir('tower-home-');
  root = tempDir('tower-swarm-team-');
  tmuxTmp = tempDir('tower-tmuxtmp-');
  socketDir = path.join(tmuxTmp, `tmux-${process.getuid?.() ?? 0}`);
  fs.mkdirSync(socketDir, { mode: 0o700 });
  tower = await startTmux();
  cleanups.push(() => tower.kill());
  ctx = testContext({
    claudeDir: path.join(home, '.claude'),
    socketName: tower.name,
    home,
    config: { killGraceSec: 0.5 },
  });
  ctx.env = { ...ctx.env, TMUX_TMPDIR: tmuxTmp, XDG_STATE_HOME: path.join(home, 'state'), TMUX: '' };
});

afterEach(async () => {
  // Every server and process this test started goes, also when it failed half-way.
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  cleanups = [];
});

describe("Claude Code's swarm servers", () => {
  /** tower's %1 (outside the team's dir) and the swarm's %1 (the team's worker), the lead process in the team's dir. */
  async function sameIdOnTwoServers(): Promise<{ swarm: Swarm; paneId: string }> {
    const towerPane = await newSessionPane(tower.client, 'other', os.tmpdir(), ECHO('TOWER-PANE'));
    const lead = startLead(root);
    const swarm = await startSwarm(lead.pid!, root);
    const swarmPane = await newSessionPane(swarm.client, 'worker-1', root, ECHO('SWARM-PANE'));
    expect(swarmPane).toBe(towerPane);
    writeTeam(swarmPane);
    await waitFor(async () => (await screenOf(swarm.client, swarmPane)).includes('SWARM-PANE'), 5000, {
      what: 'the swarm pane to start',
    });
    await waitFor(async () => (await screenOf(tower.client, towerPane)).includes('TOWER-PANE'), 5000, {
      what: "tower's pane to start",
    });
    return { swarm, paneId: swarmPane };
  }

  it("finds a member on the swarm server tied to its team's lead, and captures that pane, not tower's %N", async () => {
    const { swarm, paneId } = await sameIdOnTwoServers();
    const snapshot = await buildSnapshot(ctx);
    expect(worker(snapshot)).toMatchObject({ paneId, state: 'alive', tmuxServer: swarm.name });
    expect(snapshot.runs.find((r) => r.id === RUN)?.problems).toEqual([]);

    const watch = new PaneWatch(ctx.tmux, Date.now, null, ctx.env);
    await watch.round(memberPanes(snapshot.runs, null), null);
    const look = watch.lookOf(worker(snapshot));
    expect(look?.text).toContain('SWARM-PANE');
    expect(look?.text).not.toContain('TOWER-PANE');

    // Once the swarm's pane is gone, tower's %1 (working elsewhere) is not taken for it: not its pane, and refused.
    await swarm.client.killPane(paneId);
    const after = await buildSnapshot(ctx);
    expect(worker(after).state).toBe('not-its-pane');
    expect(worker(after).tmuxServer ?? null).toBeNull();
    expect(after.runs.find((r) => r.id === RUN)?.problems.map((p) => p.message)).toEqual([
      expect.stringContaining(`${paneId} is not on ${swarm.name} (this run's Claude Code tmux server)`),
    ]);
    expect(worker(after).notItsPane).toContain(`works in ${os.tmpdir()}`);
    expect(planAction(actionEnv(after), { kind: 'terminate', run: RUN, members: ['worker-1'] }).refusal).toContain(
      'not its pane',
    );
  });

  it("the live store's poll tick finds the swarm server and captures the member's pane there", async () => {
    const { swarm } = await sameIdOnTwoServers();
    ctx.config = { ...ctx.config, pollIntervalMs: 200 };
    const { store, watch } = createWatchedStore(ctx);
    cleanups.push(() => store.stop());
    await store.start();
    const seen = await waitFor(
      () => {
        const m = worker(store.getSnapshot());
        const text = watch.lookOf(m)?.text ?? '';
        return m.tmuxServer === swarm.name && text.includes('SWARM-PANE') ? text : null;
      },
      8000,
      { what: "the swarm pane's capture in the live store" },
    );
    expect(seen).not.toContain('TOWER-PANE');
  });

  it("sends a line into the swarm's pane, and --dry-run prints the command with the server's socket", async () => {
    const { swarm, paneId } = await sameIdOnTwoServers();
    const snapshot = await buildSnapshot(ctx);
    const env = actionEnv(snapshot);
    const plan = planAction(env, { kind: 'send', run: RUN, members: ['worker-1'], text: 'hello-swarm' });
    expect(plan.refusal).toBeNull();
    expect(plan.title).toContain(`(${paneId} on ${swarm.name})`);
    expect(plan.effects.map((e) => e.text)).toContain(
      `tmux -S ${swarm.socket} send-keys -t ${paneId} -l -- hello-swarm`,
    );

    ctx.dryRun = true;
    const dry = await runAction(env, plan);
    expect(dry.details).toContain(`tmux -S ${swarm.socket} send-keys -t ${paneId} -H 0D`);
    expect(await screenOf(swarm.client, paneId)).not.toContain('hello-swarm');
    ctx.dryRun = false;

    await runAction(env, plan);
    await waitFor(async () => (await screenOf(swarm.client, paneId)).includes('hello-swarm'), 5000, {
      what: 'the line in the swarm pane',
    });
    expect(await screenOf(tower.client, paneId)).not.toContain('hello-swarm');
  });

  it("terminates the swarm's pane and leaves tower's pane with the same id running", async () => {
    const { swarm, paneId } = await sameIdOnTwoServers();
    const env = actionEnv(await buildSnapshot(ctx));
    const plan = planAction(env, { kind: 'terminate', run: RUN, members: ['worker-1'] });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.text)).toContain(`tmux -S ${swarm.socket} kill-pane -t ${paneId}`);
    const outcome = await runAction(env, plan);
    expect(outcome.status).toBe('done');
    expect((await swarm.client.listPanes()).map((p) => p.paneId)).not.toContain(paneId);
    const towerPane = (await tower.client.listPanes()).find((p) => p.paneId === paneId);
    expect(towerPane?.dead).toBe(false);
    expect(await screenOf(tower.client, paneId)).toContain('TOWER-PANE');
  });

  it('says unknown, with a problem, when two servers hold the %N and nothing tells them apart, and refuses to act', async () => {
    // tower's %1 works in the team's dir too, and the swarm's lead is gone: neither server wins.
    const towerPane = await newSessionPane(tower.client, 'other', root, ECHO('TOWER-PANE'));
    const gone = startLead(root);
    const pid = gone.pid!;
    gone.kill('SIGKILL');
    await waitFor(() => gone.exitCode !== null || gone.signalCode !== null, 5000, { what: 'the lead to exit' });
    const swarm = await startSwarm(pid, root);
    const swarmPane = await newSessionPane(swarm.client, 'worker-1', root, ECHO('SWARM-PANE'));
    expect(swarmPane).toBe(towerPane);
    writeTeam(swarmPane);

    const snapshot = await buildSnapshot(ctx);
    const m = worker(snapshot);
    expect(m.state).toBe('unknown');
    expect(m.tmuxServer ?? null).toBeNull();
    const problems = snapshot.runs.find((r) => r.id === RUN)?.problems.map((p) => p.message) ?? [];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`pane ${swarmPane} is on tower's own server and ${swarm.name}`);

    const env = actionEnv(snapshot);
    for (const kind of ['terminate', 'send', 'attach'] as const) {
      const plan = planAction(env, { kind, run: RUN, members: ['worker-1'], text: 'x' });
      expect(plan.refusal, kind).toContain('nothing tells which');
    }
    // Nothing was touched on either server.
    expect((await tower.client.listPanes()).some((p) => p.paneId === towerPane && !p.dead)).toBe(true);
    expect((await swarm.client.listPanes()).some((p) => p.paneId === swarmPane && !p.dead)).toBe(true);
  });

  it('skips a swarm socket whose server is dead: no crash, no problem, and it is not asked again for a while', async () => {
    const { swarm, paneId } = await sameIdOnTwoServers();
    // A server killed hard leaves its socket file behind.
    const stale = await startSwarm(999_999, root);
    const serverPid = Number(await stale.client.displayMessage('lead', '#{pid}'));
    process.kill(serverPid, 'SIGKILL');
    await waitFor(
      () => {
        try {
          process.kill(serverPid, 0);
          return false;
        } catch {
          return true;
        }
      },
      5000,
      { what: 'the stale server to die' },
    );
    expect(fs.existsSync(stale.socket)).toBe(true);

    const snapshot = await buildSnapshot(ctx);
    expect(worker(snapshot)).toMatchObject({ state: 'alive', tmuxServer: swarm.name, paneId });
    expect(snapshot.problems.filter((p) => p.message.includes('claude-swarm')).length).toBeLessThanOrEqual(1);

    const scanner = new SwarmScanner(ctx.env);
    const first = await scanner.scan();
    expect(first.servers.map((s) => s.name)).toEqual([swarm.name]);
    expect(first.problems).toEqual([]);
    // The second scan remembers the dead socket (no tmux is run for it): it lists only the live server.
    expect(scanner.isRememberedDead(stale.socket)).toBe(true);
    expect(scanner.isRememberedDead(swarm.socket)).toBe(false);
    const second = await scanner.scan();
    expect(second.servers.map((s) => s.name)).toEqual([swarm.name]);
  });

  it('uses no swarm server in a socket folder group may write in: a problem row, and an action planned before is refused', async () => {
    const { swarm, paneId } = await sameIdOnTwoServers();
    const env = actionEnv(await buildSnapshot(ctx));
    const plan = planAction(env, { kind: 'send', run: RUN, members: ['worker-1'], text: 'deploy token is hunter2' });
    expect(plan.refusal).toBeNull();
    fs.chmodSync(socketDir, 0o770);
    const snapshot = await buildSnapshot(ctx);
    expect(worker(snapshot).tmuxServer ?? null).toBeNull();
    expect(worker(snapshot).state).not.toBe('alive');
    expect(snapshot.problems.map((p) => p.message)).toContain(
      `tmux: claude-swarm servers in ${socketDir} are not used: ${socketDir} is writable by group (mode 770)`,
    );
    const outcome = await runAction(env, plan);
    expect(outcome.status).not.toBe('done');
    expect(outcome.message).toContain('writable by group');
    expect(await screenOf(swarm.client, paneId)).not.toContain('hunter2');
    expect(await screenOf(tower.client, paneId)).not.toContain('hunter2');
  });

  it('uses no swarm socket another user owns', async () => {
    const { swarm } = await sameIdOnTwoServers();
    fs.lchownSync(swarm.socket, 65534, 65534);
    const snapshot = await buildSnapshot(ctx);
    expect(worker(snapshot).tmuxServer ?? null).toBeNull();
    expect(snapshot.problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining(`tmux ${swarm.name}: not used: ${swarm.socket} is owned by uid 65534, not by you`),
    );
  });
});
