/**
 * update(model, message): the next model and the effects, and nothing else. Keys read together each
 * see the model the one before left; what a key asks of the world comes back as effects.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionPlan } from '../../../src/kit/types.js';
import { defaultBindings } from '../../../src/keys/keymap.js';
import type { Message, Model } from '../../../src/ui/model/model.js';
import { initialModel, inPrompt } from '../../../src/ui/model/model.js';
import { TickTimer } from '../../../src/ui/model/tick.js';
import { holdFirstRun, update } from '../../../src/ui/model/update.js';
import type { Effect } from '../../../src/ui/model/effect.js';
import { createSessionStore } from '../../../src/ui/session-state.js';
import { fixtureSnapshot, harnessRun } from '../fixtures.js';

const plan: ActionPlan = {
  request: { kind: 'grant', run: 'x', gate: 'g' },
  run: null,
  title: 'grant g',
  effects: [],
  refusal: null,
  destructive: true,
};

function start(): Model {
  return holdFirstRun(
    initialModel({
      snapshot: fixtureSnapshot(),
      activity: [],
      size: { columns: 120, rows: 40 },
      session: createSessionStore().getSnapshot(),
      bindings: defaultBindings(),
      readonly: false,
    }),
  );
}

/** Applies messages in order; the model at the end and every effect asked for on the way. */
function run(model: Model, ...messages: Message[]): { model: Model; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const m of messages) {
    const next = update(model, m);
    model = next.model;
    effects.push(...next.effects);
  }
  return { model, effects };
}

const key = (k: string, raw = k.length === 1 ? k : ''): Message => ({ type: 'key', key: k, raw });

describe('update', () => {
  it('holds the first run shown, and a later snapshot that reorders the runs does not move it', () => {
    const m = start();
    const first = m.ui.selectedRunId;
    expect(first).not.toBeNull();
    const reordered = { ...m.snapshot, runs: [...m.snapshot.runs].reverse() };
    expect(run(m, { type: 'snapshot', snapshot: reordered }).model.ui.selectedRunId).toBe(first);
  });

  it('applies keys read together one after the other, each to the model the one before left', () => {
    const m = start();
    const ids = m.snapshot.runs.map((r) => r.id);
    const { model, effects } = run(m, key('j'), key('j'));
    expect(model.ui.selectedRunId).not.toBe(m.ui.selectedRunId);
    expect(ids).toContain(model.ui.selectedRunId);
    expect(run(m, key('j')).model.ui.selectedRunId).not.toBe(model.ui.selectedRunId);
    expect(effects).toEqual([]);
  });

  it('returns the same model for a message that changes nothing', () => {
    const m = start();
    expect(update(m, { type: 'resize', size: { columns: 120, rows: 40 } }).model).toBe(m);
    expect(update(m, { type: 'snapshot', snapshot: m.snapshot }).model).toBe(m);
  });

  it('asks for the request name to be checked as it is left, and moves on only once it is a name', () => {
    const harness = harnessRun();
    const m0 = run(start(), {
      type: 'dialog',
      action: { type: 'open', dialog: { kind: 'request', runId: harness.id, field: 'name', name: '', message: '' } },
    }).model;
    expect(inPrompt(m0)).toBe(true);
    const typed = run(m0, key('d'), key('b'), key('tab'));
    expect(typed.effects).toEqual([{ kind: 'check-name', request: { kind: 'request', run: harness.id, name: 'db' } }]);
    expect(typed.model.dialogs.current).toMatchObject({ field: 'name', name: 'db' });
    const refused = run(typed.model, { type: 'name-checked', problem: 'db is pending already' });
    expect(refused.model.dialogs.current).toMatchObject({
      field: 'name',
      name: 'db',
      problem: 'db is pending already',
    });
    const named = run(typed.model, { type: 'name-checked', problem: null }, key('w'), key('enter'));
    expect(named.model.dialogs.current).toBeNull();
    expect(named.effects).toEqual([
      { kind: 'ask', request: { kind: 'request', run: harness.id, name: 'db', message: 'w' } },
    ]);
  });

  it('runs a confirmed plan as an effect, and only closes a refused one', () => {
    const open = (p: ActionPlan) =>
      run(start(), { type: 'dialog', action: { type: 'open', dialog: { kind: 'confirm', plan: p, scroll: 0 } } }).model;
    const yes = run(open(plan), key('y'));
    expect(yes.effects).toEqual([{ kind: 'start', plan }]);
    expect(yes.model.dialogs.current).toBeNull();
    const refused = run(open({ ...plan, refusal: 'no such gate' }), key('y'));
    expect(refused.effects).toEqual([]);
    expect(refused.model.dialogs.current).toBeNull();
  });

  it('answers a straggler offer with the names it showed (y) or none (n), and drops it', () => {
    const offered = run(start(), {
      type: 'dialog',
      action: { type: 'open', dialog: { kind: 'offer-terminate', offerId: 3, runId: 'x', alive: ['w1', 'w2'] } },
    }).model;
    const yes = run(offered, key('y'));
    expect(yes.effects).toEqual([{ kind: 'answer-offer', offerId: 3, names: ['w1', 'w2'] }]);
    expect(yes.model.dialogs.current).toBeNull();
    expect(run(offered, key('n')).effects).toEqual([{ kind: 'answer-offer', offerId: 3, names: [] }]);
  });

  it('quits and mutes through effects, never by itself', () => {
    const m = start();
    expect(run(m, key('q')).effects).toEqual([{ kind: 'quit' }]);
    const muted = run(m, key('m'));
    expect(muted.effects).toEqual([{ kind: 'toggle-mute' }]);
    expect(muted.model).toBe(m);
  });

  it('lets the activity pane own v and Enter: the line under the cursor opens whole, no pane is attached', () => {
    const entry = {
      id: 1,
      time: '2026-11-26T12:00:05.000Z',
      action: 'grant' as const,
      runId: 'x',
      target: null,
      status: 'failed' as const,
      message: 'the gate file changed',
      details: ['was: pending', 'now: granted by hand'],
    };
    const m = run(start(), { type: 'activity', activity: [entry] }).model;
    const focused = { ...m, ui: { ...m.ui, focus: 'activity' as const } };
    for (const k of ['v', 'enter']) {
      const read = run(focused, key(k));
      expect(read.effects).toEqual([]);
      expect(read.model.dialogs.current).toMatchObject({ kind: 'read', title: 'grant failed' });
      const text = read.model.dialogs.current?.kind === 'read' ? read.model.dialogs.current.text : '';
      expect(text).toContain('now: granted by hand');
    }
    // Elsewhere Enter is the screen's attach.
    const team = run({ ...m, ui: { ...m.ui, focus: 'team' } }, key('enter'));
    expect(team.model.dialogs.current?.kind).not.toBe('read');
  });
});

describe('the clock as a message', () => {
  const T = Date.parse('2030-01-01T00:00:00Z');
  const tick = (now: number): Message => ({ type: 'tick', now });

  it('keeps the time by the minute while no age shown counts seconds, and asks for the next tick', () => {
    const first = run(start(), tick(T + 10_000));
    expect(first.model.now).toBe(T);
    expect(first.effects).toEqual([{ kind: 'tick-after', ms: 1000 }]);
    // A tick that moves no age shown leaves the model as it was: the screen does not draw again.
    expect(update(first.model, tick(T + 30_000)).model).toBe(first.model);
    expect(update(first.model, tick(T + 61_000)).model.now).toBe(T + 60_000);
  });

  it('counts seconds while a member of the run shown has been in its state under a minute', () => {
    const m = start();
    const runs = m.snapshot.runs.map((r) =>
      r.id !== m.ui.selectedRunId
        ? r
        : {
            ...r,
            members: [...r.members, { ...harnessRun().members[0]!, activitySince: new Date(T - 5_000).toISOString() }],
          },
    );
    const young = run(m, { type: 'snapshot', snapshot: { ...m.snapshot, runs } }, tick(T + 1_500)).model;
    expect(young.now).toBe(T + 1_000);
    expect(update(young, tick(T + 2_200)).model.now).toBe(T + 2_000);
  });
});

describe('the tick timer', () => {
  afterEach(() => vi.useRealTimers());

  it('holds one tick at a time, its wait bounded, and none once disposed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const sent: Message[] = [];
    const ticks = new TickTimer(Date.now, (message) => sent.push(message));
    ticks.after(1000);
    ticks.after(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
    expect(ticks.pending()).toBe(false);
    // Asked for ten minutes, it ticks within its bound; asked for none, not at once.
    ticks.after(600_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(2);
    ticks.after(0);
    await vi.advanceTimersByTimeAsync(10);
    expect(sent).toHaveLength(2);
    ticks.dispose();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(2);
  });
});
