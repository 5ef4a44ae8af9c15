/** The checkpoint cycle and rehydrate against a real tmux server and a fake lead. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { ActionProgress } from '../../src/kit/types.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { TinaFixture } from './kit.js';
import { actionWorld, FAKE_LEAD, snapshotOf, tinaFixture, tinaRun } from './kit.js';

// A server per test: the fixture's session names are fixed, as tina's are.
let tmux: TmuxFixture;
beforeEach(async () => {
  tmux = await startTmux();
});
afterEach(async () => {
  await tmux.kill();
});

async function answering(): Promise<{ fx: TinaFixture; home: string }> {
  const home = tempDir('tower-home-');
  return { fx: await tinaFixture(tmux, { home }), home };
}

describe('checkpoint', () => {
  it('writes the signal, types the command into the phase lead and finishes when the handoff is written', async () => {
    const { fx, home } = await answering();
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    expect(plan.refusal).toBeNull();
    expect(plan.target).toBe(fx.panes.lead);
    expect(plan.effects.map((e) => e.text)).toContain(
      `tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} -l -- /tina:checkpoint`,
    );

    const progress: ActionProgress[] = [];
    const outcome = await runAction(w.env, plan, { onProgress: (p) => progress.push(p) });
    expect(outcome.status).toBe('done');
    expect(outcome.message).toContain('handoff.md written');
    const signal = JSON.parse(fs.readFileSync(fx.signal, 'utf8')) as Record<string, unknown>;
    expect(signal.source).toBe('tower');
    expect(typeof signal.triggered_at).toBe('string');
    expect(fs.statSync(fx.handoff).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(fx.signal).mtimeMs);
    // The phase lead got the command, the orchestration lead did not.
    expect(await tmux.client.capturePane(fx.panes.lead)).toContain('❯ /tina:checkpoint');
    expect(await tmux.client.capturePane(fx.panes.orchestrator)).not.toContain('checkpoint');

    const audit = w.audit();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'checkpoint', run: 'tina:auth', target: fx.panes.lead, outcome: 'done' });
    for (const key of ['time', 'user', 'host', 'duration', 'message']) expect(audit[0]).toHaveProperty(key);
    const entry = w.activity.getSnapshot().at(-1);
    expect(entry).toMatchObject({ action: 'checkpoint', runId: 'tina:auth', status: 'done' });
  });

  it('keeps an existing signal as it is', async () => {
    const { fx, home } = await answering();
    const w = actionWorld(tmux.name, home);
    fs.writeFileSync(
      fx.signal,
      '{"triggered_at": "2026-01-26T14:37:07Z", "context_pct": 71, "threshold": 70, "source": "statusline"}\n',
    );
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(fx.signal, old, old);
    w.setSnapshot(snapshotOf(tinaRun(fx, true)));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    expect(plan.effects.some((e) => e.kind === 'write' && e.text.startsWith(`write ${fx.signal}`))).toBe(false);
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    expect(fs.readFileSync(fx.signal, 'utf8')).toContain('"source": "statusline"');
  });

  it('times out against a silent lead: offers the stragglers, escalates, says so', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx, true)));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina', timeoutSec: 1.5 });
    const offered: string[][] = [];
    const outcome = await runAction(w.env, plan, {
      offerTerminate: async (names) => {
        offered.push(names);
        return ['worker-1'];
      },
    });
    expect(outcome.status).toBe('timeout');
    expect(outcome.message).toContain('escalated');
    expect(outcome.message).toContain('tower-escalation.json');
    expect(offered).toEqual([['worker-1', 'worker-2']]);
    const esc = JSON.parse(fs.readFileSync(path.join(fx.stateDir, 'tower-escalation.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(esc.action).toBe('checkpoint');
    expect(String(esc.reason)).toContain('no handoff within 1.5 s');
    expect(typeof esc.at).toBe('string');
    // tina's own status file is left alone.
    expect(JSON.parse(fs.readFileSync(path.join(fx.stateDir, 'phase-2', 'status.json'), 'utf8'))).toMatchObject({
      status: 'executing',
    });
    // The chosen straggler was terminated, as its own audited action; the other was left.
    expect(outcome.details?.join('\n')).toContain('force-terminate worker-1: done');
    const panes = (await tmux.client.listPanes()).map((p) => p.paneId);
    expect(panes).not.toContain(fx.panes.worker1);
    expect(panes).toContain(fx.panes.worker2);
    expect(w.audit().map((a) => [a.action, a.outcome])).toEqual([
      ['terminate', 'done'],
      ['checkpoint', 'timeout'],
    ]);
  });

  it('is cancelled through the signal', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    const w = actionWorld(tmux.name, home, { config: { checkpointTimeoutSec: 30 } });
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const ac = new AbortController();
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    const running = runAction(w.env, plan, { signal: ac.signal, onProgress: () => ac.abort() });
    const outcome = await running;
    expect(outcome.status).toBe('cancelled');
    expect(w.audit()[0]).toMatchObject({ action: 'checkpoint', outcome: 'cancelled' });
    expect(fs.existsSync(path.join(fx.stateDir, 'tower-escalation.json'))).toBe(false);
  });

  it('waits only for CHECKPOINT COMPLETE on a Claude team (no state files)', async () => {
    const home = tempDir('tower-home-');
    const dir = tempDir('tower-team-');
    const pane = await tmux.newSession(
      'team-x',
      dir,
      `node '${FAKE_LEAD}' --checkpoint /checkpoint --rehydrate /rehydrate`,
    );
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('❯'), 5000);
    const run = emptyRun('claude-team', 'team-x', null, null);
    run.members = [
      { name: 'team-lead', role: 'team-lead', model: '', paneId: pane, state: 'alive', lead: true, team: 'team-x' },
    ];
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'claude-team:team-x' });
    expect(plan.effects.every((e) => e.kind !== 'write')).toBe(true);
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'done' });
    expect(outcome.message).toContain('printed CHECKPOINT COMPLETE');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fails with the tmux error when the lead pane is gone, and refuses a dead lead', async () => {
    const { fx, home } = await answering();
    const w = actionWorld(tmux.name, home);
    const run = tinaRun(fx);
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    await tmux.client.killPane(fx.panes.lead);
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toContain(`team-lead in ${fx.panes.lead} is gone`);
    expect(fs.existsSync(fx.signal)).toBe(false);

    const dead = {
      ...run,
      members: run.members.map((m) => (m.name === 'team-lead' ? { ...m, state: 'dead' as const } : m)),
    };
    w.setSnapshot(snapshotOf(dead));
    expect(planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' }).refusal).toContain('is gone');
  });
});

describe('rehydrate', () => {
  it('clears, waits for the prompt, types the rehydrate command, deletes the signal, sees REHYDRATE COMPLETE', async () => {
    const { fx, home } = await answering();
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx, true)));
    expect((await runAction(w.env, planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' }), {})).status).toBe(
      'done',
    );
    expect(fs.existsSync(fx.signal)).toBe(true);

    const plan = planAction(w.env, { kind: 'rehydrate', run: 'tina:auth' });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => e.text)).toEqual([
      expect.stringMatching(/^check what \S+ shows right before \/clear is typed: nothing is typed unless/),
      `tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} -l -- /clear`,
      `tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} Enter`,
      expect.stringContaining('for a prompt'),
      expect.stringMatching(/^check what \S+ shows right before \/tina:rehydrate is typed/),
      `tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} -l -- /tina:rehydrate`,
      `tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} Enter`,
      `delete ${fx.signal} (if present)`,
      expect.stringContaining('REHYDRATE COMPLETE'),
    ]);
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'done', message: expect.stringContaining('REHYDRATE COMPLETE') });
    expect(outcome.details).toContain(`deleted ${fx.signal}`);
    expect(outcome.details?.some((d) => d.startsWith('no prompt'))).toBe(false);
    expect(fs.existsSync(fx.signal)).toBe(false);
    expect(w.audit().map((a) => a.action)).toEqual(['checkpoint', 'rehydrate']);
  });

  it('reports a lead that never rehydrates instead of blocking', async () => {
    const home = tempDir('tower-home-');
    const fx = await tinaFixture(tmux, { home, lead: 'silent' });
    fs.mkdirSync(path.dirname(fx.handoff), { recursive: true });
    fs.writeFileSync(fx.handoff, '# handoff\n');
    const w = actionWorld(tmux.name, home, { config: { rehydrateTimeoutSec: 0.5 } });
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const plan = planAction(w.env, { kind: 'rehydrate', run: 'tina:auth' });
    // Make the prompt wait short for this test: the silent lead never shows a fresh prompt.
    if (plan.detail?.kind === 'rehydrate') plan.detail.promptTimeoutMs = 300;
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('timeout');
    expect(outcome.message).toContain('printed no REHYDRATE COMPLETE');
    expect(outcome.details).toContain('no prompt after 0.3 s; typed the rehydrate command anyway');
  });

  it('refuses to clear a tina lead that has no handoff to come back from', async () => {
    const { fx, home } = await answering();
    const w = actionWorld(tmux.name, home);
    w.setSnapshot(snapshotOf(tinaRun(fx)));
    const plan = planAction(w.env, { kind: 'rehydrate', run: 'tina:auth' });
    expect(plan.refusal).toContain('no handoff to rehydrate from');
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('refused');
    expect(await tmux.client.capturePane(fx.panes.lead)).not.toContain('/clear');
    expect(w.audit()[0]).toMatchObject({ action: 'rehydrate', outcome: 'refused' });
  });
});
