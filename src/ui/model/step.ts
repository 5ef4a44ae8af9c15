/**
 * One step of `update` in the making: the model as the message has changed it so far, and the
 * effects it asks for. Handlers apply screen and dialog actions to it in order, each seeing what the
 * one before left, and `done()` hands back the result; nothing outside the step is touched.
 */
import type { DialogAction } from '../state/dialog-state.js';
import { dialogReducer } from '../state/dialog-state.js';
import type { UiAction } from '../state/ui-state.js';
import { uiReducer } from '../state/ui-state.js';
import type { Effect, Model } from './model.js';

/** What `update` returns: the next model and the effects to run, in order. */
export interface Next {
  model: Model;
  effects: readonly Effect[];
}

/** A step in the making. */
export class Step {
  private readonly effects: Effect[] = [];

  constructor(public model: Model) {}

  /** Applies a screen action. */
  ui(action: UiAction): void {
    const ui = uiReducer(this.model.ui, action);
    if (ui !== this.model.ui) this.model = { ...this.model, ui };
  }

  /** Applies a dialog action. */
  dialog(action: DialogAction): void {
    const dialogs = dialogReducer(this.model.dialogs, action);
    if (dialogs !== this.model.dialogs) this.model = { ...this.model, dialogs };
  }

  /** Asks for an effect. */
  effect(effect: Effect): void {
    this.effects.push(effect);
  }

  /** The step's result. */
  done(): Next {
    return { model: this.model, effects: this.effects };
  }
}
