/**
 * The effect runner: does what `update` asks (plans, runs and refuses actions, answers straggler
 * offers, attaches, mutes, ticks the clock, quits) and feeds what comes back into the model as messages.
 */
import type { ActionRunner } from './action-runner.js';
import type { SessionStore } from '../session-state.js';
import type { Effect } from './effect.js';
import type { Message } from './model.js';
import type { TickTimer } from './tick.js';

/** What the runner acts through. */
export interface EffectDeps {
  runner: ActionRunner;
  session: SessionStore;
  ticks: TickTimer;
  quit: () => void;
  /** Hands a message back to the model. */
  send: (message: Message) => void;
}

/** Runs one effect. */
export function runEffect(e: Effect, d: EffectDeps): void {
  switch (e.kind) {
    case 'ask':
      return d.runner.ask(e.request);
    case 'refuse':
      return d.runner.refuse(e.request, e.title, e.reason);
    case 'start':
      return d.runner.start(e.plan);
    case 'answer-offer':
      return d.runner.answerOffer(e.offerId, e.names);
    case 'cancel-running':
      d.runner.cancelRunning();
      return;
    case 'attach':
      return d.runner.attach(e.paneId, e.label, e.runId);
    case 'check-name':
      return d.send({ type: 'name-checked', problem: d.runner.refusalOf(e.request) });
    case 'toggle-mute':
      return d.session.set({ muted: !d.session.getSnapshot().muted });
    case 'tick-after':
      return d.ticks.after(e.ms);
    case 'quit':
      return d.quit();
  }
}
