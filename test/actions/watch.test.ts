/** `tower watch`: the snapshot diff, and the supervisor loop on the live store with real files and panes. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runWatch } from '../../src/commands/watch.js';
import type { WatchEvent } from '../../src/commands/watch-events.js';
import { diffSnapshots } from '../../src/commands/watch-events.js';
import type { Gate, Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { defaultNotifyConfig } from '../../src/config/notify.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import { harnessProject } from './cli-kit.js';
import { actionWorld, snapshotOf, tinaFixture } from './kit.js';

const T = '2026-05-08T12:00:00.000Z';
/** Claude Code 2.1.332's Bash dialog, captured. */
const DIALOG = path.join(import.meta.dirname, '../fixtures/claude-code-2.1.332/screens/bash-prompt.70x40.txt');

function gate(id: string, state: Gate['state'] = 'pending', kind: Gate['kind'] = 'checkpoint'): Gate {
  return { id, kind, state, since: null, grantable: state === 'pending', title: id, file: null };
}

function run(id: string, over: Partial<Run> = {}): Run {
  const [system, name] = id.split(':') as [Run['system'], string];
  return { ...emptyRun(system, name, '/p', '/p/.harness'), status: 'running', ...over };
}

describe('diffSnapshots', () => {
  it('adds every run and opens every pending gate of the first snapshot', () => {
    const events = diffSnapshots(null, snapshotOf(run('harness:a', { gates: [gate('x'), gate('y', 'granted')] })), T);
    expect(events.map((e) => [e.event, e.run, e.gate ?? null])).toEqual([
      ['run-added', 'harness:a', null],
      ['gate-opened', 'harness:a', 'x'],
    ]);
    expect(events[0]).toMatchObject({ time: T, system: 'harness', status: 'running' });
  });

  it('reports status changes, gates opening and closing (granted or gone), members dying and coming alive', () => {
    const m = (name: string, state: 'alive' | 'dead') => ({
      name,
      role: 'w',
      model: '',
      paneId: '%1',
      state,
      lead: false,
      team: 't',
    });
    const before = snapshotOf(
      run('tina:a', {
        gates: [gate('context', 'pending', 'context'), gate('blocked', 'pending', 'escalation')],
        members: [m('w1', 'alive'), m('w2', 'dead')],
      }),
      run('harness:gone'),
    );
    const after = snapshotOf(
      run('tina:a', {
        status: 'waiting',
        gates: [gate('blocked', 'granted', 'escalation'), gate('new')],
        members: [m('w1', 'dead'), m('w2', 'alive')],
      }),
      run('sage:b'),
    );
    const events = diffSnapshots(before, after, T).map((e: WatchEvent) => [
      e.event,
      e.run,
      e.gate ?? e.member ?? null,
      e.state ?? e.to ?? null,
    ]);
    expect(events).toEqual([
      ['status-changed', 'tina:a', null, 'waiting'],
      ['gate-opened', 'tina:a', 'new', null],
      ['gate-closed', 'tina:a', 'context', 'gone'],
      ['gate-closed', 'tina:a', 'blocked', 'granted'],
      ['member-died', 'tina:a', 'w1', null],
      ['member-alive', 'tina:a', 'w2', null],
      ['run-added', 'sage:b', null, null],
      ['run-removed', 'harness:gone', null, null],
    ]);
  });

  it('reports nothing between equal snapshots', () => {
    const s = snapshotOf(run('harness:a', { gates: [gate('x')] }));
    expect(diffSnapshots(s, structuredClone(s), T)).toEqual([]);
  });
  it('on a long list shared object by object, sees the one run that changed, the one that moved, came and went', () => {
    const runs = Array.from({ length: 2000 }, (_, i) =>
      run(`claude-team:t${String(i).padStart(4, '0')}`, { status: 'complete' }),
    );
    const before = snapshotOf(...runs);
    const changed = { ...(runs[700] as Run), status: 'running' as const };
    // t0700 changed and moved to the front; t1500 moved without changing; t1999 went; n came.
    const moved = runs[1500] as Run;
    const rest = runs.filter((_, i) => i !== 700 && i !== 1500 && i !== 1999);
    const after = snapshotOf(changed, ...rest.slice(0, 1000), moved, ...rest.slice(1000), run('claude-team:n'));
    const events = diffSnapshots(before, after, T).map((e: WatchEvent) => [e.event, e.run, e.to ?? null]);
    expect(events).toEqual([
      ['status-changed', 'claude-team:t0700', 'running'],
      ['run-added', 'claude-team:n', null],
      ['run-removed', 'claude-team:t1999', null],
    ]);
  });
});

describe('runWatch on the live store', () => {
  let tmux: TmuxFixture;
  beforeEach(async () => {
    tmux = await startTmux();
  });
  afterEach(async () => {
    await tmux.kill();
  });

  it('prints gate-opened when a checkpoint file appears and member-died when a pane is killed; stops on abort', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home });
    const shop = tempDir('tower-shop-');
    const stateDir = harnessProject(shop);
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 100 } });
    w.ctx.roots = [fx.root, shop];
    const events: WatchEvent[] = [];
    const ac = new AbortController();
    const watching = runWatch(w.ctx, { autoCheckpoint: false, signal: ac.signal, emit: (e) => events.push(e) });
    await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'plan-approval'), 10_000, {
      what: 'the pending gate',
    });
    expect(
      events
        .filter((e) => e.event === 'run-added')
        .map((e) => e.run)
        .sort(),
    ).toEqual(['harness:' + path.basename(shop), 'tina:auth'].sort());

    fs.writeFileSync(path.join(stateDir, 'checkpoint-pre-done.md'), '# Checkpoint: pre-done (manual request)\n');
    await waitFor(() => events.find((e) => e.event === 'gate-opened' && e.gate === 'pre-done'), 10_000, {
      what: 'gate-opened pre-done',
    });
    await tmux.client.killPane(fx.panes.worker1);
    const died = await waitFor(() => events.find((e) => e.event === 'member-died'), 10_000, { what: 'member-died' });
    expect(died).toMatchObject({ run: 'tina:auth', member: 'worker-1', paneId: fx.panes.worker1 });
    // Without --auto-checkpoint a signal is only reported.
    fs.writeFileSync(fx.signal, '{}\n');
    await waitFor(() => events.find((e) => e.event === 'gate-opened' && e.gate === 'context'), 10_000, {
      what: 'the context gate',
    });
    ac.abort();
    await watching;
    expect(events.some((e) => e.event === 'action-started')).toBe(false);
    expect(await tmux.client.capturePane(fx.panes.lead)).not.toContain('checkpoint');
  });

  it('runs the notify command for what opens after the start, not for what the first snapshot shows', async () => {
    const home = tempDir('tower-home-');
    const shop = tempDir('tower-shop-');
    const stateDir = harnessProject(shop);
    const told = path.join(home, 'told.txt');
    const command = `echo "$TOWER_EVENT $TOWER_RUN $TOWER_GATE" >> '${told}'`;
    const w = actionWorld(tmux.name, home, {
      config: { pollIntervalMs: 100, notify: { ...defaultNotifyConfig(), command } },
    });
    w.ctx.roots = [shop];
    const events: WatchEvent[] = [];
    const ac = new AbortController();
    const watching = runWatch(w.ctx, { autoCheckpoint: false, signal: ac.signal, emit: (e) => events.push(e) });
    await waitFor(() => events.some((e) => e.event === 'gate-opened' && e.gate === 'plan-approval'), 10_000, {
      what: 'the pending gate',
    });
    fs.writeFileSync(path.join(stateDir, 'checkpoint-pre-done.md'), '# Checkpoint: pre-done (manual request)\n');
    await waitFor(() => fs.existsSync(told) && fs.readFileSync(told, 'utf8').includes('pre-done'), 10_000, {
      what: 'the notify command',
    });
    ac.abort();
    await watching;
    expect(fs.readFileSync(told, 'utf8')).toBe(`gate-opened harness:${path.basename(shop)} pre-done\n`);
    // The JSON lines are the same events as without notifications.
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(['run-added', 'gate-opened']));
  });

  it('--auto-checkpoint: one cycle per run at a time; a failed checkpoint stops the cycle before rehydrate', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 100, checkpointTimeoutSec: 2.5 } });
    w.ctx.roots = [fx.root];
    const events: WatchEvent[] = [];
    const ac = new AbortController();
    const watching = runWatch(w.ctx, { autoCheckpoint: true, signal: ac.signal, emit: (e) => events.push(e) });
    await waitFor(() => events.some((e) => e.event === 'run-added'), 10_000);
    fs.writeFileSync(fx.signal, '{"source": "statusline"}\n');
    // Once the command is typed (the signal was ensured before), the signal goes and comes back
    // while the cycle runs: no second cycle for the same run.
    await waitFor(async () => (await tmux.client.capturePane(fx.panes.lead)).includes('/tina:checkpoint'), 10_000, {
      what: 'the command',
    });
    fs.rmSync(fx.signal);
    await waitFor(() => events.some((e) => e.event === 'gate-closed' && e.gate === 'context'), 10_000, {
      what: 'the gate to close',
    });
    fs.writeFileSync(fx.signal, '{"source": "statusline"}\n');
    await waitFor(() => events.filter((e) => e.event === 'gate-opened' && e.gate === 'context').length === 2, 10_000, {
      what: 'the gate to reopen',
    });
    expect(events.some((e) => e.event === 'action-finished')).toBe(false);
    const finished = await waitFor(() => events.find((e) => e.event === 'action-finished'), 10_000, {
      what: 'the checkpoint to end',
    });
    expect(finished).toMatchObject({ action: 'checkpoint', status: 'timeout' });
    expect(events.filter((e) => e.event === 'action-started').map((e) => e.action)).toEqual(['checkpoint']);
    ac.abort();
    await watching;
    expect(w.audit().map((a) => [a.action, a.outcome])).toEqual([['checkpoint', 'timeout']]);
  });

  it('--auto-checkpoint types nothing into a lead whose pane shows a permission dialog: refused, saying why', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    // The lead's pane shows Claude Code's Bash dialog, as captured from the real CLI.
    await tmux.client.run(['respawn-pane', '-k', '-t', fx.panes.lead, `cat '${DIALOG}'; exec sleep 100000`]);
    await waitFor(
      async () => (await tmux.client.capturePane(fx.panes.lead)).includes('Do you want to proceed?'),
      10_000,
      {
        what: 'the dialog',
      },
    );
    const w = actionWorld(tmux.name, home, { config: { pollIntervalMs: 100, checkpointTimeoutSec: 2.5 } });
    w.ctx.roots = [fx.root];
    const events: WatchEvent[] = [];
    const ac = new AbortController();
    const watching = runWatch(w.ctx, { autoCheckpoint: true, signal: ac.signal, emit: (e) => events.push(e) });
    await waitFor(() => events.some((e) => e.event === 'run-added'), 10_000);
    fs.writeFileSync(fx.signal, '{"source": "statusline"}\n');
    const finished = await waitFor(() => events.find((e) => e.event === 'action-finished'), 10_000, {
      what: 'the checkpoint to end',
    });
    expect(finished).toMatchObject({
      action: 'checkpoint',
      status: 'refused',
      message: expect.stringMatching(/shows a prompt \(Do you want to proceed\?.*\/tina:checkpoint was not typed/),
    });
    ac.abort();
    await watching;
    // Nothing typed: the dialog is as drawn, and no rehydrate followed.
    expect(events.filter((e) => e.event === 'action-started').map((e) => e.action)).toEqual(['checkpoint']);
    const screen = await tmux.client.capturePane(fx.panes.lead);
    expect(screen).toContain('Do you want to proceed?');
    expect(screen).not.toContain('/tina:checkpoint');
    expect(w.audit().map((a) => [a.action, a.outcome])).toEqual([['checkpoint', 'refused']]);
  });
});
