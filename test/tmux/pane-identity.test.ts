/**
 * A pane is more than its `%N`, for real: a tmux server numbers its panes from `%0` again when it
 * starts, so a team file left from a killed server names the new server's panes; and a team on
 * tower's server and a Claude Code swarm server in the same folder both hold a `%1`. The member is
 * shown `not-its-pane` and refused, or found on its own server; and a pane that changed hands
 * between the snapshot and the action is refused right before the effect, nothing typed.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { ActivityStore } from '../../src/kit/activity.js';
import type { ActionEnv } from '../../src/kit/types.js';
import type { Member, Snapshot } from '../../src/model/model.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { procStart } from '../../src/tmux/proc-start.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TestContext } from '../helpers/context.js';
import { testContext } from '../helpers/context.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

/** A pane that says who it is, then echoes what is typed into it. */
/** An agent that says who it is, then shows a prompt (a line is typed only at one) and echoes what it is sent. */
const ECHO = (who: string) => `bash -c 'echo ${who}; printf "❯ "; exec cat'`;

let cleanups: (() => Promise<void> | void)[] = [];
let tower: TmuxFixture;
let home: string;
let ctx: TestContext;
let socketDir: string;

beforeEach(async () => {
  cleanups = [];
  home = tempDir('tower-identity-');
  const tmuxTmp = tempDir('tower-tmuxtmp-');
  socketDir = path.join(tmuxTmp, `tmux-${process.getuid?.() ?? 0}`);
  fs.mkdirSync(socketDir, { mode: 0o700 });
  tower = await startTmux();
  cleanups.push(() => tower.kill());
  ctx = testContext({ claudeDir: path.join(home, '.claude'), socketName: tower.name, home });
  ctx.env = { ...ctx.env, TMUX_TMPDIR: tmuxTmp, XDG_STATE_HOME: path.join(home, 'state'), TMUX: '' };
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  cleanups = [];
});

function project(name: string): string {
  const dir = path.join(home, name);
  fs.mkdirSync(dir, { recursive: true });
  return fs.realpathSync(dir);
}

async function newPane(client: TmuxClient, session: string, cwd: string, command: string): Promise<string> {
  const args = ['new-session', '-d', '-P', '-F', '#{pane_id}', '-s', session, '-c', cwd, '-x', '120', '-y', '30'];
  return (await client.run([...args, command])).trim();
}

interface MemberSpec {
  name: string;
  pane: string;
  cwd: string;
  joinedAt: number;
  lead?: boolean;
}

function writeTeam(team: string, members: MemberSpec[], leadProcess?: { pid: number; procStart: number }): void {
  writeFile(path.join(ctx.claudeDir, 'teams', team, 'config.json'), {
    name: team,
    createdAt: Math.min(...members.map((m) => m.joinedAt)),
    leadAgentId: `team-lead@${team}`,
    ...(leadProcess ? { leadProcess: { ...leadProcess, pidSpace: null, claimedAt: Date.now() } } : {}),
    members: members.map((m) => ({
      agentId: `${m.name}@${team}`,
      name: m.name,
      agentType: m.lead ? 'team-lead' : 'general-purpose',
      model: 'claude-sonnet-4',
      joinedAt: m.joinedAt,
      tmuxPaneId: m.pane,
      cwd: m.cwd,
      subscriptions: [],
    })),
  });
}

function memberOf(s: Snapshot, run: string, name: string): Member {
  const m = s.runs.find((r) => r.id === run)?.members.find((x) => x.name === name);
  if (!m) throw new Error(`no ${name} in ${run}: ${JSON.stringify(s.runs.map((r) => r.id))}`);
  return m;
}

function actionEnv(snapshot: Snapshot): ActionEnv {
  return { ctx, snapshot: () => snapshot, activity: new ActivityStore() };
}

async function shows(client: TmuxClient, paneId: string, text: string): Promise<void> {
  await waitFor(async () => (await client.capturePane(paneId, 50)).includes(text), 5000, { what: `${text} shown` });
}

/** Kills tower's server and starts it again under the same name: its panes are numbered from the start again. */
async function restartTower(): Promise<void> {
  await tower.client.killServer();
  // The old server may still be on its way out (its socket answering "exited unexpectedly"): start
  // the new one once a start goes through.
  await waitFor(
    async () => {
      try {
        await tower.client.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'base', '-c', home, 'sleep 100000']);
        return true;
      } catch {
        return false;
      }
    },
    5000,
    { what: 'the server to start again' },
  );
}

describe('a team left from a killed tmux server', () => {
  it('does not take the new server’s panes with the same ids: not its pane, and every action refused', async () => {
    const old = project('old-sandbox');
    const fresh = project('new-sandbox');
    const before = [await newPane(tower.client, 'lead', old, ECHO('OLD-LEAD'))];
    before.push(await newPane(tower.client, 'worker', old, ECHO('OLD-WORKER')));
    // The team joined a minute ago, in its panes of the first server.
    const joined = Date.now() - 60_000;
    writeTeam('checkout-flow', [
      { name: 'team-lead', pane: before[0]!, cwd: old, joinedAt: joined, lead: true },
      { name: 'worker-1', pane: before[1]!, cwd: old, joinedAt: joined },
    ]);
    await restartTower();
    // The new server's panes get the same ids, in another sandbox.
    const after = [await newPane(tower.client, 'lead2', fresh, ECHO('NEW-LEAD'))];
    after.push(await newPane(tower.client, 'worker2', fresh, ECHO('NEW-WORKER')));
    expect(after).toEqual(before);
    await shows(tower.client, after[1]!, 'NEW-WORKER');

    const s = await buildSnapshot(ctx);
    const run = 'claude-team:checkout-flow';
    for (const name of ['team-lead', 'worker-1']) {
      const m = memberOf(s, run, name);
      expect(m.state, name).toBe('not-its-pane');
      expect(m.notItsPane, name).toMatch(/started at .*after .* joined/);
    }
    expect(s.runs.find((r) => r.id === run)?.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('team-lead: not its pane: pane %'),
      expect.stringContaining('worker-1: not its pane: pane %'),
    ]);
    const env = actionEnv(s);
    ctx.dryRun = true;
    for (const req of [
      { kind: 'terminate' as const, run, members: ['worker-1'] },
      { kind: 'send' as const, run, members: ['worker-1'], text: 'hello' },
      { kind: 'answer' as const, run, members: ['worker-1'], choice: '1' },
      { kind: 'attach' as const, run, members: ['worker-1'] },
      { kind: 'checkpoint' as const, run },
    ]) {
      const plan = planAction(env, req);
      expect(plan.refusal, req.kind).toContain('not its pane');
      expect(plan.effects, req.kind).toEqual([]);
    }
    // Without a name, terminate takes no one: the new server's worker is not the team's.
    expect(planAction(env, { kind: 'terminate', run }).refusal).not.toBeNull();
  });

  it('takes a pane that works in another project for another agent’s, even started in time', async () => {
    const mine = project('mine');
    const other = project('other');
    const pane = await newPane(tower.client, 'w', other, ECHO('OTHER'));
    writeTeam('solo', [{ name: 'team-lead', pane, cwd: mine, joinedAt: Date.now(), lead: true }]);
    const m = memberOf(await buildSnapshot(ctx), 'claude-team:solo', 'team-lead');
    expect(m.state).toBe('not-its-pane');
    expect(m.notItsPane).toContain(`works in ${other}, team-lead in ${mine}`);
  });
});

describe('the pane changes hands between the snapshot and the action', () => {
  it('refuses right before typing when the %N runs another process now, and types nothing', async () => {
    const dir = project('proj');
    const pane = await newPane(tower.client, 'lead', dir, ECHO('FIRST'));
    await shows(tower.client, pane, 'FIRST');
    writeTeam('t', [{ name: 'team-lead', pane, cwd: dir, joinedAt: Date.now(), lead: true }]);
    const s = await buildSnapshot(ctx);
    const lead = memberOf(s, 'claude-team:t', 'team-lead');
    expect(lead.state).toBe('alive');
    expect(lead.paneProcess?.pid).toBeGreaterThan(0);
    const env = actionEnv(s);
    const send = planAction(env, { kind: 'send', run: 'claude-team:t', members: ['team-lead'], text: 'deploy-token' });
    const terminate = planAction(env, { kind: 'terminate', run: 'claude-team:t', members: ['team-lead'] });
    expect(send.refusal).toBeNull();
    expect(terminate.refusal).toBeNull();

    // The server restarts and another agent's pane gets the same id, in the same folder.
    await restartTower();
    const again = await newPane(tower.client, 'other', dir, ECHO('SECOND'));
    expect(again).toBe(pane);
    await shows(tower.client, again, 'SECOND');

    const sent = await runAction(env, send);
    expect(sent.status).toBe('refused');
    expect(sent.message).toContain(`pane ${pane} is not the one you saw`);
    expect(await tower.client.capturePane(again, 50)).not.toContain('deploy-token');
    const killed = await runAction(env, terminate);
    expect(killed.status).not.toBe('done');
    expect(killed.details?.join('\n')).toContain('is not the one you saw');
    expect((await tower.client.listPanes()).some((p) => p.paneId === again && !p.dead)).toBe(true);
  });
});

describe('a team on tower’s server and a swarm server in the same folder', () => {
  it('keeps the team on tower’s server: terminate, send and liveness reach tower’s %1, never the swarm’s', async () => {
    const dir = project('proj');
    // Team A: lead and worker on tower's server; its lead's process is the lead pane's.
    const leadA = await newPane(tower.client, 'a-lead', dir, ECHO('A-LEAD'));
    const workerA = await newPane(tower.client, 'a-worker', dir, ECHO('A-WORKER'));
    const leadPid = (await tower.client.listPanes()).find((p) => p.paneId === leadA)!.pid;
    // Team B: a lead outside tmux, in the same folder, with its own claude-swarm server.
    const leadB: ChildProcess = spawn('sleep', ['100000'], { cwd: dir, stdio: 'ignore' });
    cleanups.push(() => {
      leadB.kill('SIGKILL');
    });
    const swarmName = `claude-swarm-${leadB.pid!}`;
    const swarm = new TmuxClient({ path: path.join(socketDir, swarmName) }, 5000);
    cleanups.push(async () => {
      await swarm.killServer().catch(() => {});
      fs.rmSync(path.join(socketDir, swarmName), { force: true });
    });
    await swarm.run(['-f', '/dev/null', 'new-session', '-d', '-s', 'b0', '-c', dir, 'sleep 100000']);
    await newPane(swarm, 'b1', dir, 'sleep 100000');
    const workerB = await newPane(swarm, 'b-worker', dir, ECHO('B-WORKER'));
    expect(workerB).toBe(workerA);
    await shows(swarm, workerB, 'B-WORKER');
    await shows(tower.client, workerA, 'A-WORKER');
    const now = Date.now();
    writeTeam(
      'team-a',
      [
        { name: 'team-lead', pane: leadA, cwd: dir, joinedAt: now, lead: true },
        { name: 'worker-a', pane: workerA, cwd: dir, joinedAt: now },
      ],
      { pid: leadPid, procStart: procStart(leadPid)! },
    );
    writeTeam(
      'team-b',
      [
        { name: 'team-lead', pane: '', cwd: dir, joinedAt: now, lead: true },
        { name: 'worker-b', pane: workerB, cwd: dir, joinedAt: now },
      ],
      { pid: leadB.pid!, procStart: procStart(leadB.pid!)! },
    );

    const s = await buildSnapshot(ctx);
    const a = memberOf(s, 'claude-team:team-a', 'worker-a');
    expect(a.state).toBe('alive');
    expect(a.tmuxServer ?? null).toBeNull();
    expect(memberOf(s, 'claude-team:team-b', 'worker-b')).toMatchObject({ state: 'alive', tmuxServer: swarmName });

    const env = actionEnv(s);
    const kill = planAction(env, { kind: 'terminate', run: 'claude-team:team-a', members: ['worker-a'] });
    expect(kill.refusal).toBeNull();
    expect(kill.effects.map((e) => e.text)).toContain(`tmux -L ${tower.name} kill-pane -t ${workerA}`);
    const send = planAction(env, { kind: 'send', run: 'claude-team:team-a', members: ['worker-a'], text: 'for-a' });
    expect(await runAction(env, send)).toMatchObject({ status: expect.stringMatching(/done|failed/) });
    await shows(tower.client, workerA, 'for-a');
    expect(await swarm.capturePane(workerB, 50)).not.toContain('for-a');
  });

  it('refuses a team whose lead process is in a pane of tower’s server while a swarm server is named after it', async () => {
    const dir = project('proj');
    const lead = await newPane(tower.client, 'lead', dir, ECHO('LEAD'));
    const worker = await newPane(tower.client, 'worker', dir, ECHO('WORKER'));
    const pid = (await tower.client.listPanes()).find((p) => p.paneId === lead)!.pid;
    const swarmName = `claude-swarm-${pid}`;
    const swarm = new TmuxClient({ path: path.join(socketDir, swarmName) }, 5000);
    cleanups.push(async () => {
      await swarm.killServer().catch(() => {});
      fs.rmSync(path.join(socketDir, swarmName), { force: true });
    });
    await swarm.run(['-f', '/dev/null', 'new-session', '-d', '-s', 's0', '-c', dir, 'sleep 100000']);
    await newPane(swarm, 's1', dir, 'sleep 100000');
    writeTeam(
      'both',
      [
        { name: 'team-lead', pane: lead, cwd: dir, joinedAt: Date.now(), lead: true },
        { name: 'worker', pane: worker, cwd: dir, joinedAt: Date.now() },
      ],
      { pid, procStart: procStart(pid)! },
    );
    const s = await buildSnapshot(ctx);
    const m = memberOf(s, 'claude-team:both', 'worker');
    expect(m.state).toBe('unknown');
    expect(m.tmuxServerUnknown).toContain('tied to both');
    expect(
      planAction(actionEnv(s), { kind: 'terminate', run: 'claude-team:both', members: ['worker'] }).refusal,
    ).toContain('tied to both');
  });
});
