/**
 * update(model, message): the next model and the effects, and nothing else. Keys read together each
 * see the model the one before left; what a key asks of the world comes back as effects.
 */
import { describe, expect, it } from 'vitest';
import type { ActionPlan } from '../../../src/kit/types.js';
import { defaultBindings } from '../../../src/keys/keymap.js';
import type { Message, Model } from '../../../src/ui/model/model.js';
import { initialModel, inPrompt } from '../../../src/ui/model/model.js';
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
