/**
 * The control room's one model: everything the screen shows and the keys act on, in one value.
 * Messages (a key, a snapshot, the activity, a resize, a capture, a tick, a dialog an action opens) go
 * through `update` (update.ts), which returns the next model and the effects to run; the effect
 * runner (effects.ts) runs them. The frame the screen draws is derived from the model alone.
 */
import type { Bindings } from '../../keys/keymap.js';
import type { Snapshot } from '../../model/model.js';
import type { ActivityEntry } from '../../store/types.js';
import type { Frame, FrameInputs } from '../frame.js';
import { frameDeriver } from '../frame.js';
import type { TerminalSize } from '../hooks/use-terminal-size.js';
import type { SessionState } from '../session-state.js';
import type { DialogAction, DialogState } from '../state/dialog-state.js';
import { NO_DIALOG } from '../state/dialog-state.js';
import type { UiState } from '../state/ui-state.js';
import { initialUiState } from '../state/ui-state.js';

export type { Effect } from './effect.js';

/** Everything the screen holds between messages. */
export interface Model {
  ui: UiState;
  dialogs: DialogState;
  snapshot: Snapshot;
  /** The activity pane's entries (actions' progress lands here). */
  activity: readonly ActivityEntry[];
  size: TerminalSize;
  /** Loading, attach and mute state, as the terminal session keeps it. */
  session: SessionState;
  /** Whether a running action can be cancelled (Esc). */
  cancellable: boolean;
  /** Lines the previewed pane's capture holds (how far back the preview scrolls). */
  previewLines: number;
  /** The time the screen draws ages with, rounded to the finest age it shows (ms; model/tick.ts). */
  now: number;
  /** Fixed at mount: the keymap and whether actions are refused. */
  bindings: Bindings;
  readonly: boolean;
}

/** What changes the model. */
export type Message =
  /** A key read from the terminal: its name (null: none) and its raw text. */
  | { type: 'key'; key: string | null; raw: string }
  | { type: 'snapshot'; snapshot: Snapshot }
  /** The activity pane's entries changed (an action started, progressed or ended). */
  | { type: 'activity'; activity: readonly ActivityEntry[] }
  | { type: 'resize'; size: TerminalSize }
  | { type: 'session'; session: SessionState }
  /** The previewed pane's capture changed: how many lines it holds now. */
  | { type: 'capture'; lines: number }
  | { type: 'cancellable'; cancellable: boolean }
  /** The clock moved (a tick the model asked for, or a clock moved by hand). */
  | { type: 'tick'; now: number }
  /** A dialog change an action asks for (its plan arrived, a straggler offer, a refusal). */
  | { type: 'dialog'; action: DialogAction }
  /** The request's name was checked as it was left: why it cannot be used, or null. */
  | { type: 'name-checked'; problem: string | null };

/** What a model starts from, besides the fixed parts. */
export interface ModelStart {
  snapshot: Snapshot;
  activity: readonly ActivityEntry[];
  size: TerminalSize;
  session: SessionState;
  bindings: Bindings;
  readonly: boolean;
  /** The time at start (the first tick rounds it). */
  now?: number;
}

/** A fresh screen's model. */
export function initialModel(start: ModelStart): Model {
  return { ui: initialUiState(), dialogs: NO_DIALOG, cancellable: false, previewLines: 0, now: 0, ...start };
}

/** Whether keys type into a prompt now (the filter, a request's fields, a line to send). */
export function inPrompt(model: Model): boolean {
  const kind = model.dialogs.current?.kind;
  return model.ui.filtering || kind === 'request' || kind === 'send';
}

/** What the frame of `model` is derived from. */
export function frameInputs(model: Model): FrameInputs {
  return {
    snapshot: model.snapshot,
    activity: model.activity,
    ui: model.ui,
    dialog: model.dialogs.current,
    size: model.size,
    bindings: model.bindings,
    readonly: model.readonly,
    cancellable: model.cancellable,
    muted: model.session.muted,
  };
}

/** The frame of a model, kept on its inputs: the screen and `update` share one, so it is derived once. */
export type FrameOf = (model: Model) => Frame;

/** A new FrameOf (one per screen). */
export function modelFrames(): FrameOf {
  const derive = frameDeriver();
  return (model) => derive(frameInputs(model));
}
