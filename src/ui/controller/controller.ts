/**
 * The input router: one key at a time, in priority order — force-quit, help, the open dialog or
 * prompt, the filter prompt, the focused pane, then global commands. It applies keys to the state
 * stores synchronously, so keys arriving together are handled one after the other.
 */
import { ACTION_KINDS } from '../../kit/types.js';
import type { ActionKind } from '../../kit/types.js';
import type { ActivityEntry } from '../../store/types.js';
import type { Bindings, Command } from '../../keys/keymap.js';
import {
  isForceQuit,
  isMove,
  moveIndex,
  translateGlobalKey,
  translateModalKey,
  translatePaneKey,
  translatePromptKey,
} from '../input/translate.js';
import { screenCommand } from '../commands/screen-commands.js';
import type { ScreenSelection } from '../commands/screen-commands.js';
import { paneSpec } from '../panes/registry.js';
import type { DialogAction, DialogState } from '../state/dialog-state.js';
import { heldInput, unreadCut } from '../state/dialog-state.js';
import type { ReducerStore } from '../state/reducer-store.js';
import type { PaneId, UiAction, UiState } from '../state/ui-state.js';
import { memberInView } from '../state/requests.js';
import type { ScreenView } from '../state/view.js';
import type { Frame } from '../frame.js';
import type { ScreenMetrics } from '../metrics.js';
import type { ActionRunner } from './action-runner.js';

export type { ScreenMetrics } from '../metrics.js';

export interface ControllerDeps {
  bindings: Bindings;
  ui: ReducerStore<UiState, UiAction>;
  dialogs: ReducerStore<DialogState, DialogAction>;
  runner: ActionRunner;
  activity: () => readonly ActivityEntry[];
  /** The frame the screen shows for the stores as they are now (the same deriver the screen draws with). */
  frame: () => Frame;
  /** Whether notifications are muted, and the toggle. */
  muted?: () => boolean;
  toggleMute?: () => void;
  /** How many lines the preview of this view holds (how far back it scrolls). */
  previewLines?: (view: ScreenView, focus: PaneId) => number;
  quit: () => void;
}

export class Controller {
  constructor(private readonly d: ControllerDeps) {}

  /** Handles one key (its name, or null) with its raw text. */
  press(key: string | null, raw: string): void {
    const { bindings, ui, dialogs } = this.d;
    if (isForceQuit(bindings, key)) return this.d.quit();
    const state = ui.getState();
    const dialog = dialogs.getState().current;
    if (state.help) return this.helpKey(key);
    if (dialog?.kind === 'request') return this.requestKey(key, raw);
    if (dialog?.kind === 'send') return this.sendKey(key, raw);
    if (dialog) return this.dialogKey(key);
    if (state.filtering) return this.filterKey(key, raw);
    if (key === null) return;
    const view = this.view();
    const paneCommand = translatePaneKey(bindings, state.focus, key);
    // A key the focused pane handles itself (the preview scrolls back through its capture).
    const own = paneCommand && state.focus !== 'runs' ? paneSpec(state.focus).key : undefined;
    if (paneCommand && own && state.focus !== 'runs') {
      const to = own(paneCommand, {
        cursor: state.cursors[state.focus],
        page: this.metrics().page[state.focus],
        lines: this.d.previewLines?.(view, state.focus) ?? 0,
      });
      if (to !== null) return ui.dispatch({ type: 'cursor', pane: state.focus, index: to });
    }
    if (paneCommand && isMove(paneCommand)) {
      const page = this.metrics().page[state.focus];
      ui.dispatch({
        type: 'move',
        pane: state.focus,
        move: paneCommand,
        count: view.rows[state.focus],
        page,
        runIds: view.runs.map((r) => r.id),
      });
      return;
    }
    if (paneCommand === 'read') return this.command('read', state, view);
    const command = translateGlobalKey(bindings, key);
    if (command) this.command(command, state, view);
  }

  /** The view as the next frame will show it. */
  view(): ScreenView {
    return this.d.frame().view;
  }

  private metrics(): ScreenMetrics {
    return this.d.frame().metrics;
  }

  /** A main-screen command: its spec says whether it applies (else why not) and what it does. */
  private command(command: Command, state: UiState, view: ScreenView): void {
    const spec = screenCommand(command);
    if (!spec) return;
    const { ui, dialogs, runner } = this.d;
    const selection: ScreenSelection = {
      view,
      run: view.run,
      focus: state.focus,
      member: memberInView(state.focus, view.member),
      gate: view.gate,
      filter: state.filter,
      readonly: runner.readonly,
      activity: state.focus === 'activity' ? newestFirst(this.d.activity(), view.cursors.activity) : null,
      cancellable: runner.getCancellable() !== null,
      muted: this.d.muted?.() ?? false,
    };
    const verdict = spec.when(selection);
    if (!verdict.ok) {
      if (!verdict.reason) return;
      // An action refused here is recorded like the CLI's refusals (activity pane, audit log).
      const kind = actionOf(command);
      if (kind) runner.refuse({ kind, run: view.run?.id ?? '' }, verdict.title, verdict.reason);
      else
        dialogs.dispatch({ type: 'open', dialog: { kind: 'refusal', title: verdict.title, reason: verdict.reason } });
      return;
    }
    spec.run(selection, { ui, dialogs, runner, quit: () => this.d.quit(), toggleMute: () => this.d.toggleMute?.() });
  }

  private helpKey(key: string | null): void {
    if (key === null) return;
    const { ui } = this.d;
    const command = translateModalKey(this.d.bindings, key);
    if (command === 'help' || command === 'cancel') return ui.dispatch({ type: 'help', open: false });
    const max = this.metrics().helpMax;
    const to = command
      ? moveIndex(command, {
          index: Math.min(ui.getState().helpScroll, max),
          count: max + 1,
          page: this.metrics().page.runs,
        })
      : null;
    if (to !== null) ui.dispatch({ type: 'help-scroll', to });
  }

  private dialogKey(key: string | null): void {
    if (key === null) return;
    const { runner, dialogs } = this.d;
    const command = translateModalKey(this.d.bindings, key);
    const d = dialogs.getState().current;
    // A held request whose line leaves something out is read whole before y answers it.
    const unread = d && command === 'confirm' ? unreadCut(d) : null;
    if (unread !== null)
      return dialogs.dispatch({
        type: 'peek',
        dialog: { kind: 'refusal', title: 'Read it whole first', reason: unread },
      });
    if (command === 'confirm') return runner.confirm();
    if (command === 'cancel') return runner.cancel();
    const input = d?.kind === 'confirm' && command === 'read' ? heldInput(d.plan) : null;
    // The request's whole input, read in front of the dialog that answers it (which comes back on close).
    if (input !== null) {
      dialogs.dispatch({ type: 'read-whole' });
      return dialogs.dispatch({
        type: 'peek',
        dialog: { kind: 'read', title: 'The whole input of the held request', text: input, scroll: 0 },
      });
    }
    if ((d?.kind !== 'confirm' && d?.kind !== 'read') || !command) return;
    const max = this.metrics().dialogMax;
    const to = moveIndex(command, { index: Math.min(d.scroll, max), count: max + 1, page: 5 });
    if (to !== null) dialogs.dispatch({ type: 'scroll', to });
  }

  /**
   * A key in a dialog's text prompt (the request's fields, the line to send): typing, erasing and
   * leaving are the same for both; the command it means otherwise, for the dialog to act on.
   */
  private promptKey(key: string | null, raw: string): Command | null {
    const { dialogs } = this.d;
    const input = translatePromptKey(this.d.bindings, key, raw);
    if (!input) return null;
    if ('text' in input) dialogs.dispatch({ type: 'type', text: input.text });
    else if ('erase' in input) dialogs.dispatch({ type: 'erase' });
    else if (input.command === 'dismiss') dialogs.dispatch({ type: 'close' });
    else return input.command;
    return null;
  }

  private requestKey(key: string | null, raw: string): void {
    const { dialogs, runner } = this.d;
    const d = dialogs.getState().current;
    if (d?.kind !== 'request') return;
    const command = this.promptKey(key, raw);
    if (command !== 'next-field' && command !== 'accept') return;
    // The name is checked as it is left, before the message is typed: a refusal keeps the input.
    if (d.field === 'name' && d.name.trim() !== '') {
      const problem = runner.refusalOf({ kind: 'request', run: d.runId, name: d.name.trim() });
      if (problem) return dialogs.dispatch({ type: 'name-problem', problem });
    }
    if (command === 'next-field') return dialogs.dispatch({ type: 'next-field' });
    if (d.field === 'name' || d.name.trim() === '') {
      if (d.name.trim() !== '' || d.field === 'message') dialogs.dispatch({ type: 'next-field' });
      return;
    }
    dialogs.dispatch({ type: 'close' });
    runner.ask({ kind: 'request', run: d.runId, name: d.name.trim(), message: d.message.trim() || undefined });
  }

  private sendKey(key: string | null, raw: string): void {
    const { dialogs, runner } = this.d;
    const d = dialogs.getState().current;
    if (d?.kind !== 'send' || this.promptKey(key, raw) !== 'accept' || d.text.trim() === '') return;
    dialogs.dispatch({ type: 'close' });
    runner.ask({ kind: 'send', run: d.runId, members: [d.ref], text: d.text });
  }

  private filterKey(key: string | null, raw: string): void {
    const { ui } = this.d;
    const input = translatePromptKey(this.d.bindings, key, raw);
    if (!input) return;
    const filter = ui.getState().filter;
    if ('text' in input) return ui.dispatch({ type: 'filter-text', text: filter + input.text });
    if ('erase' in input) return ui.dispatch({ type: 'filter-text', text: [...filter].slice(0, -1).join('') });
    if (input.command === 'dismiss') return ui.dispatch({ type: 'filter-clear' });
    if (input.command === 'accept') {
      const first = this.view().runs[0]?.id ?? null;
      ui.dispatch({ type: 'filter-accept', firstId: first });
    }
  }
}

/** The activity entry at `cursor`, counted from the newest (as the pane lists them). */
function newestFirst(entries: readonly ActivityEntry[], cursor: number): ActivityEntry | null {
  return entries[entries.length - 1 - cursor] ?? null;
}

/** The action a command asks for (its refusal is recorded like the CLI's), or null. */
function actionOf(command: Command): ActionKind | null {
  if (command.startsWith('answer-')) return 'answer';
  return (ACTION_KINDS as readonly string[]).includes(command) ? (command as ActionKind) : null;
}
