/**
 * The model held outside React: `send` applies a message through `update`, tells the screen when
 * the model changed, then runs the effects (which may send messages of their own, applied in turn).
 * Keys are sent synchronously, so several keys read at once each see the model the one before left;
 * React reads the model with useSyncExternalStore.
 */
import type { Effect } from './effect.js';
import type { FrameOf, Message, Model } from './model.js';
import { update } from './update.js';

/** The model with subscribe/getModel/send. */
export interface ModelStore {
  getModel(): Model;
  send(message: Message): void;
  subscribe(listener: () => void): () => void;
}

/** A store starting at `initial`; `run` does the effects. */
export function createModelStore(initial: Model, frameOf: FrameOf, run: (effect: Effect) => void): ModelStore {
  let model = initial;
  const listeners = new Set<() => void>();
  return {
    getModel: () => model,
    send(message) {
      const next = update(model, message, frameOf);
      if (next.model !== model) {
        model = next.model;
        for (const l of listeners) l();
      }
      for (const e of next.effects) run(e);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
