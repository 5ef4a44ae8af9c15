/**
 * A tina run in a remediation phase (fixture: test/fixtures/tina/remediation, shaped like
 * joshuabates/tina's supervisor-state and team files; its README cites the source of each rule):
 * `current_phase` stays 2 while `phases["2.5"]` executes, so 2.5 is the phase shown, its team is
 * merged, and the checkpoint targets its lead and waits for `phase-2.5/handoff.md`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Run, Snapshot } from '../../src/model/model.js';
import { readSnapshot } from '../../src/store/snapshot.js';
import { phaseSessionName } from '../../src/systems/tina/cycle.js';
import { comparePhases, currentPhaseOf } from '../../src/systems/tina/phases.js';
import { parseSupervisorState } from '../../src/systems/tina/state.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import type { PaneInfo } from '../../src/tmux/client.js';
import { actionWorld, FAKE_LEAD } from '../actions/kit.js';
import { copyFixtureTree, joinedNow, tempDirsPerTest } from '../helpers/fixtures.js';
import { startTmux } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const NOW = Date.parse('2026-02-10T13:00:00Z');
const tempDir = tempDirsPerTest('tower-remediation-');
let tmp: string;
let claudeDir: string;
let root: string;
let stateDir: string;

beforeEach(() => {
  tmp = tempDir();
  copyFixtureTree('tina/remediation', tmp, tmp);
  claudeDir = path.join(tmp, 'claude');
  root = path.join(tmp, 'worktrees', 'billing');
  stateDir = path.join(root, '.claude', 'tina');
});

function snapshot(panes: PaneInfo[] | null): Snapshot {
  // No roots given and no tina-sessions registry: the run is found from the teams' cwd.
  return readSnapshot({ roots: [], claudeDir, panes, settings: { ...DEFAULT_READ_SETTINGS, now: NOW }, home: tmp });
}

function billing(s: Snapshot): Run {
  const run = s.runs.find((r) => r.id === 'tina:billing');
  if (!run) throw new Error(`no tina:billing in ${s.runs.map((r) => r.id).join(', ')}`);
  return run;
}

describe('tina phase names', () => {
  it('orders remediation phases after their phase and before the next', () => {
    expect(['10', '2.5', '1.5.5', '2', '1', '1.5'].sort(comparePhases)).toEqual([
      '1',
      '1.5',
      '1.5.5',
      '2',
      '2.5',
      '10',
    ]);
  });

  it('turns the dots of the phase (and of the feature) into _ in session names', () => {
    expect(phaseSessionName('billing', '2.5')).toBe('tina-billing-phase-2_5');
    expect(phaseSessionName('billing', '1.5.5')).toBe('tina-billing-phase-1_5_5');
    expect(phaseSessionName('api.v2', '3')).toBe('tina-api_v2-phase-3');
  });

  it('takes the deepest remediation of the current phase that is not complete', () => {
    const state = (phases: Record<string, string>) => {
      const parsed = parseSupervisorState(
        { current_phase: 1, phases: Object.fromEntries(Object.entries(phases).map(([k, status]) => [k, { status }])) },
        'f',
      ).state;
      if (!parsed) throw new Error('unparsed');
      return currentPhaseOf(parsed);
    };
    expect(state({ '1': 'executing' })).toBe('1');
    expect(state({ '1': 'complete', '1.5': 'executing' })).toBe('1.5');
    expect(state({ '1': 'complete', '1.5': 'complete', '1.5.5': 'planning' })).toBe('1.5.5');
    expect(state({ '1': 'complete', '1.5': 'complete', '1.5.5': 'complete' })).toBe('1');
    // Another phase's remediation is not the current phase's.
    expect(state({ '1': 'executing', '2.5': 'executing' })).toBe('1');
  });
});

describe('a run in a remediation phase', () => {
  it('shows the remediation as the current phase, with its team merged and no team of its own', () => {
    const s = snapshot(null);
    // The 2.5 team (folder billing-phase-2-5) and the nested 1.5.5 team are part of the run.
    expect(s.runs.map((r) => r.id)).toEqual(['tina:billing']);
    const run = billing(s);
    expect(run.phase).toEqual({ current: '2.5', total: 3, status: 'executing' });
    expect(run.status).toBe('running');
    const lead = run.members.find((m) => m.lead && m.team === 'billing-phase-2.5');
    expect(lead).toMatchObject({ name: 'team-lead', paneId: null });
    expect(run.tasks.find((t) => t.team === 'billing-phase-2.5')).toMatchObject({
      subject: 'Fix rounding found in review',
      status: 'in_progress',
    });
    expect(run.problems).toEqual([]);
  });

  it("plans the checkpoint into the remediation lead's session and waits for phase-2.5/handoff.md", () => {
    const home = tempDir();
    const w = actionWorld('tower-test-unused', home, { claudeDir });
    w.setSnapshot(snapshot(null));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:billing' });
    expect(plan.refusal).toBeNull();
    expect(plan.target).toBe('=tina-billing-phase-2_5:');
    const texts = plan.effects.map((e) => e.text).join('\n');
    expect(texts).toContain('send-keys -t =tina-billing-phase-2_5: -l -- /tina:checkpoint');
    expect(texts).toContain(path.join(stateDir, 'phase-2.5', 'handoff.md'));
  });
});

describe('a run in a remediation phase, with its lead in tmux', () => {
  let tmux: TmuxFixture;
  beforeEach(async () => {
    tmux = await startTmux();
  });
  afterEach(async () => {
    await tmux.kill();
  });

  it("gives the remediation lead its session's pane, and the checkpoint ends when phase-2.5/handoff.md is written", async () => {
    const handoff = path.join(stateDir, 'phase-2.5', 'handoff.md');
    const pane = await tmux.newSession('tina-billing-phase-2_5', root, `node '${FAKE_LEAD}' --handoff '${handoff}'`);
    await waitFor(async () => (await tmux.client.capturePane(pane)).includes('❯'), 5000, {
      what: 'the fake lead prompt',
    });
    joinedNow(path.join(tmp, 'claude'));
    const s = snapshot(await tmux.client.listPanes());
    const lead = billing(s).members.find((m) => m.lead && m.team === 'billing-phase-2.5');
    expect(lead).toMatchObject({ paneId: pane, state: 'alive' });
    // The phase 2 lead (pane %20 of a finished phase) is not the one typed into.
    const home = tempDir();
    const w = actionWorld(tmux.name, home, { claudeDir });
    w.setSnapshot(s);
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:billing' });
    expect(plan.target).toBe(pane);
    const outcome = await runAction(w.env, plan, {});
    expect(outcome).toMatchObject({ status: 'done' });
    expect(outcome.message).toContain(`${handoff} written`);
    expect(fs.existsSync(handoff)).toBe(true);
    expect(await tmux.client.capturePane(pane)).toContain('❯ /tina:checkpoint');
  });

  it('finds the run from a pane working in the worktree when no team file and no registry points at it', async () => {
    fs.rmSync(path.join(claudeDir, 'teams'), { recursive: true });
    fs.rmSync(path.join(claudeDir, 'tasks'), { recursive: true });
    expect(snapshot(null).runs).toEqual([]);
    const docs = path.join(root, 'docs');
    const pane = await tmux.newSession('shell', docs);
    // tmux reads a pane's folder from its process, which a busy machine may not have started yet.
    await waitFor(
      async () => (await tmux.client.listPanes()).some((p) => p.paneId === pane && p.cwd === fs.realpathSync(docs)),
      5000,
      { what: 'the pane working in the worktree' },
    );
    const run = billing(snapshot(await tmux.client.listPanes()));
    expect(run).toMatchObject({ root, stateDir, phase: { current: '2.5' } });
  });
});
