import { afterEach, describe, expect, it } from 'vitest';
import type { ActionOutcome, ActionPlan, RunHooks } from '../../src/kit/types.js';
import { fixtureSnapshot, harnessRun, quietRuns, tinaRun } from './fixtures.js';
import type { TestScreen } from './helpers.js';
import { renderRoom, waitFor, waitForText } from './helpers.js';

const KEY = { tab: '\t', enter: '\r', esc: '\u001b', down: '\u001b[B' };
const mounted: TestScreen[] = [];
const room = (opts: Parameters<typeof renderRoom>[0] = {}) => {
  const r = renderRoom({ columns: 120, rows: 40, ...opts });
  mounted.push(r.screen);
  return r;
};
afterEach(() => {
  for (const s of mounted.splice(0)) s.unmount();
});

const grantPlan = (req: ActionPlan['request']): ActionPlan => ({
  request: req,
  run: harnessRun(),
  title: `Grant ${req.gate} of ${req.run}`,
  effects: [
    {
      kind: 'create',
      text: '/work/payments/.harness/checkpoint-plan-approval.md.granted "granted at <ISO>\\n" (exclusive)',
    },
    { kind: 'run', text: 'nothing else: the harness resumes when re-run' },
  ],
  refusal: null,
  destructive: true,
  target: req.gate ?? null,
});

describe('confirm dialog', () => {
  it('shows exactly the plan title and every effect; n cancels without running', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    actions.planFor = grantPlan;
    await waitForText(screen, 'payments');
    await screen.press('g');
    await waitForText(screen, 'Grant plan-approval of harness:payments');
    expect(actions.planned).toEqual([{ kind: 'grant', run: 'harness:payments', gate: 'plan-approval' }]);
    expect(screen.frame()).toContain(
      '/work/payments/.harness/checkpoint-plan-approval.md.granted "granted at <ISO>\\n" (exclusive)',
    );
    expect(screen.frame()).toContain('nothing else: the harness resumes when re-run');
    await screen.press('n');
    await waitFor(() => !screen.frame().includes('Grant plan-approval'));
    expect(actions.ran).toHaveLength(0);
  });

  it('y runs the plan and the outcome lands in the activity pane', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    actions.planFor = grantPlan;
    actions.runWith = async () => ({ status: 'done', message: 'granted plan-approval' });
    await screen.press('g');
    await waitForText(screen, 'Grant plan-approval');
    await screen.press('y');
    await waitForText(screen, 'granted plan-approval');
    expect(actions.ran.map((r) => r.plan.title)).toEqual(['Grant plan-approval of harness:payments']);
    expect(screen.frame()).toMatch(/done grant/);
  });

  it('shows a refusal instead of effects, and y does not run it', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    actions.planFor = (req) => ({
      ...grantPlan(req),
      effects: [],
      refusal: 'checkpoint-plan-approval.md is already granted',
    });
    await screen.press('g');
    await waitForText(screen, 'already granted');
    expect(screen.frame()).toContain('Refused');
    await screen.press('y');
    await waitFor(() => !screen.frame().includes('Refused'));
    // The refused plan is only recorded (activity pane, audit log), never executed.
    expect(actions.ran.every((r) => r.plan.refusal !== null)).toBe(true);
    await waitForText(screen, 'refused grant');
  });

  it('in read-only mode refuses whatever the planner says', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]), props: { readonly: true } });
    actions.planFor = grantPlan;
    await waitForText(screen, '[read-only]');
    await screen.press('g');
    await waitForText(screen, 'read-only mode:');
    await screen.press(KEY.enter);
    await waitFor(() => !screen.frame().includes('Refused'));
    expect(actions.ran.filter((r) => r.plan.refusal === null)).toHaveLength(0);
  });

  it('says why when there is nothing to act on', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    await screen.press('g');
    await waitForText(screen, 'no pending gate tower can grant');
    expect(actions.planned).toHaveLength(0);
    await screen.press(KEY.esc);
    await waitFor(() => !screen.frame().includes('no pending gate'));
  });
});

describe('reading a gate', () => {
  it('v in the gates pane shows the whole body, scrollable; Esc closes it', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of the plan`).join('\n');
    const run = {
      ...harnessRun(),
      gates: [{ ...harnessRun().gates[0]!, body: `# Checkpoint: plan-approval\n${long}` }],
    };
    const { screen } = room({ columns: 100, rows: 30, snapshot: fixtureSnapshot([run]) });
    // In the runs list v means nothing.
    await screen.press('v');
    expect(screen.frame()).not.toContain('(more ↓)');
    // Team, then Tasks, then the right column's first pane.
    for (let i = 0; i < 3; i++) await screen.press(KEY.tab);
    await waitForText(screen, '[> Gates');
    await waitForText(screen, 'v read gate');
    await screen.press('v');
    await waitForText(screen, '(more ↓)');
    expect(screen.frame()).toContain('line 1 of the plan');
    await screen.press('G');
    await waitForText(screen, 'line 60 of the plan');
    await screen.press(KEY.esc);
    await waitFor(() => !screen.frame().includes('line 60 of the plan'));
  });
});

describe('action requests', () => {
  it('terminate takes the live teammates, or the member selected in the team pane', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    await screen.press('X');
    await waitFor(() => actions.planned.length === 1);
    expect(actions.planned[0]).toEqual({ kind: 'terminate', run: 'tina:auth-feature', members: [] });
    await screen.press('n', KEY.tab, 'j', 'X');
    await waitFor(() => actions.planned.length === 2);
    expect(actions.planned[1]).toEqual({ kind: 'terminate', run: 'tina:auth-feature', members: ['%4'] });
  });

  it('request asks for a name and a message, then plans it', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    await screen.press('R');
    await waitForText(screen, 'Open a named checkpoint on harness:payments');
    await screen.press('db-migrate', KEY.enter, 'schema change', KEY.enter);
    // The name is planned alone as it is left (a bad or pending name is refused before the message), then the whole request.
    await waitFor(() => actions.planned.length === 2);
    expect(actions.planned[0]).toEqual({ kind: 'request', run: 'harness:payments', name: 'db-migrate' });
    expect(actions.planned[1]).toEqual({
      kind: 'request',
      run: 'harness:payments',
      name: 'db-migrate',
      message: 'schema change',
    });
  });

  it('request takes its fields from keys that arrive in one read (Tab and Enter included)', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([harnessRun()]) });
    await screen.press('R');
    await waitForText(screen, 'Open a named checkpoint');
    await screen.press('pre-deploy\tcheck the migration\r');
    await waitFor(() => actions.planned.length === 2);
    expect(actions.planned[1]).toMatchObject({ name: 'pre-deploy', message: 'check the migration' });
  });

  it('send asks for a line to the lead (or the selected member), then plans it', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    await screen.press('s');
    await waitForText(screen, 'Type a line to');
    await screen.press('use the staging flag', KEY.enter);
    await waitFor(() => actions.planned.length === 1);
    expect(actions.planned[0]).toMatchObject({ kind: 'send', run: 'tina:auth-feature', text: 'use the staging flag' });
    expect(actions.planned[0]?.members).toHaveLength(1);
  });

  it('attach goes to the lead, or to the member selected in the team pane, without a dialog', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    await screen.press('a');
    await waitFor(() => actions.attached.length === 1);
    await screen.press(KEY.tab, KEY.down, KEY.enter);
    await waitFor(() => actions.attached.length === 2);
    expect(actions.attached).toEqual(['%3', '%4']);
    await waitForText(screen, 'back from %4');
    const dead = room({ snapshot: fixtureSnapshot(quietRuns().slice(1)) });
    await dead.screen.press('a');
    await waitForText(dead.screen, 'Refused');
  });
});

describe('a running checkpoint', () => {
  /** A run that stays open until the test ends it, exposing its hooks. */
  function heldRun() {
    let hooks: RunHooks | null = null;
    let finish: (o: ActionOutcome) => void = () => {};
    const runWith = (_plan: ActionPlan, h: RunHooks) =>
      new Promise<ActionOutcome>((resolve) => {
        hooks = h;
        finish = resolve;
      });
    return { runWith, hooks: () => hooks, finish: (o: ActionOutcome) => finish(o) };
  }

  it('shows live progress in the activity pane and Esc cancels it', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    const held = heldRun();
    actions.runWith = held.runWith;
    await screen.press('c');
    await waitForText(screen, 'checkpoint tina:auth-feature');
    await screen.press('y');
    await waitFor(() => held.hooks() !== null);
    held.hooks()?.onProgress?.({
      message: 'typed /checkpoint into %3',
      elapsedMs: 42_000,
      timeoutMs: 300_000,
      waitingFor: 'waiting for handoff',
    });
    await waitForText(screen, '0:42 / 5:00 waiting for handoff');
    await waitForText(screen, 'Esc cancel checkpoint');
    await screen.press(KEY.esc);
    await waitFor(() => held.hooks()?.signal?.aborted === true);
    held.finish({ status: 'cancelled', message: 'checkpoint cancelled' });
    await waitForText(screen, 'cancelled checkpoint');
    expect(screen.frame()).not.toContain('Esc cancel checkpoint');
  });

  it('offers to force-terminate stragglers; y answers with their names', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    const held = heldRun();
    actions.runWith = held.runWith;
    await screen.press('c', 'y');
    await waitFor(() => held.hooks() !== null);
    const answer = held.hooks()?.offerTerminate?.(['worker-1', 'worker-3']);
    await waitForText(screen, 'still alive during the checkpoint');
    expect(screen.frame()).toContain('worker-3');
    await screen.press('y');
    await expect(answer).resolves.toEqual(['worker-1', 'worker-3']);
    const second = held.hooks()?.offerTerminate?.(['worker-1']);
    await waitForText(screen, 'Stragglers');
    await screen.press('n');
    await expect(second).resolves.toEqual([]);
    held.finish({ status: 'done', message: 'handoff written' });
    await waitForText(screen, 'handoff written');
  });

  it('declines a pending offer when the action ends', async () => {
    const { screen, actions } = room({ snapshot: fixtureSnapshot([tinaRun()]) });
    const held = heldRun();
    actions.runWith = held.runWith;
    await screen.press('c', 'y');
    await waitFor(() => held.hooks() !== null);
    const answer = held.hooks()?.offerTerminate?.(['worker-1']);
    await waitForText(screen, 'Stragglers');
    held.finish({ status: 'timeout', message: 'no handoff after 5:00' });
    await expect(answer).resolves.toEqual([]);
    await waitFor(() => !screen.frame().includes('Stragglers'));
  });
});
