/**
 * A key, applied to the model: in priority order force-quit, help, the open dialog or prompt, the
 * filter prompt, the focused pane, then global commands. Pure: what a key changes goes into the
 * step, what it asks of the world goes out as effects. Keys read together are applied one after the
 * other, each to the model the one before left.
 */
import { ACTION_KINDS } from '../../kit/types.js';
import type { ActionKind } from '../../kit/types.js';
import type { Command } from '../../keys/keymap.js';
import { isForceQuit, isMove, translateGlobalKey, translatePaneKey, translatePromptKey } from '../input/translate.js';
import { paneAct, screenCommand } from '../commands/screen-commands.js';
import type { ScreenSelection } from '../commands/screen-commands.js';
import { paneSpec } from '../panes/registry.js';
import { memberInView } from '../state/requests.js';
import type { ScreenView } from '../state/view.js';
import { dialogKey, helpKey } from './modal-keys.js';
import type { FrameOf } from './model.js';
import type { Step } from './step.js';

/** Applies one key (its name, or null) with its raw text. */
export function pressKey(s: Step, key: string | null, raw: string, frameOf: FrameOf): void {
  const { bindings, ui } = s.model;
  if (isForceQuit(bindings, key)) return s.effect({ kind: 'quit' });
  const dialog = s.model.dialogs.current;
  if (ui.help) return helpKey(s, key, frameOf(s.model).metrics);
  if (dialog?.kind === 'request') return requestKey(s, key, raw);
  if (dialog?.kind === 'send') return sendKey(s, key, raw);
  if (dialog) return dialogKey(s, key, frameOf(s.model).metrics);
  if (ui.filtering) return filterKey(s, key, raw, frameOf);
  if (key === null) return;
  paneKey(s, key, frameOf);
}

/** A key on the main screen: the focused pane's first, then the global ones. */
function paneKey(s: Step, key: string, frameOf: FrameOf): void {
  const { bindings, ui } = s.model;
  const { view, metrics } = frameOf(s.model);
  const paneCommand = translatePaneKey(bindings, ui.focus, key);
  // A key the focused pane handles itself (the preview scrolls back through its capture).
  const own = paneCommand && ui.focus !== 'runs' ? paneSpec(ui.focus).key : undefined;
  if (paneCommand && own && ui.focus !== 'runs') {
    const to = own(paneCommand, {
      cursor: ui.cursors[ui.focus],
      page: metrics.page[ui.focus],
      lines: s.model.previewLines,
    });
    if (to !== null) return s.ui({ type: 'cursor', pane: ui.focus, index: to });
  }
  if (paneCommand && isMove(paneCommand)) {
    const runIds = view.runs.map((r) => r.id);
    const page = metrics.page[ui.focus];
    return s.ui({ type: 'move', pane: ui.focus, move: paneCommand, count: view.rows[ui.focus], page, runIds });
  }
  const named = paneCommand ?? translateGlobalKey(bindings, key);
  if (named) command(s, named, view);
}

/**
 * A main-screen command: the focused pane's own when it owns it, else the screen's, whose spec says
 * whether it applies (else why not) and what it does.
 */
function command(s: Step, command: Command, view: ScreenView): void {
  const { ui, readonly, cancellable, session } = s.model;
  const own = paneAct({ focus: ui.focus, view }, command);
  if (own !== undefined) {
    if (own) s.dialog({ type: 'open', dialog: own.dialog });
    return;
  }
  const spec = screenCommand(command);
  if (!spec) return;
  const selection: ScreenSelection = {
    view,
    run: view.run,
    focus: ui.focus,
    member: memberInView(ui.focus, view.member),
    gate: view.gate,
    filter: ui.filter,
    readonly,
    cancellable,
    muted: session.muted,
  };
  const verdict = spec.when(selection);
  if (verdict.ok) return spec.run(selection, s);
  if (!verdict.reason) return;
  // An action refused here is recorded like the CLI's refusals (activity pane, audit log).
  const kind = actionOf(command);
  if (kind) s.effect({ kind: 'refuse', request: { kind, run: view.run?.id ?? '' }, ...verdictOf(verdict) });
  else s.dialog({ type: 'open', dialog: { kind: 'refusal', ...verdictOf(verdict) } });
}

function verdictOf(v: { title: string; reason: string }): { title: string; reason: string } {
  return { title: v.title, reason: v.reason };
}

/**
 * A key in a dialog's text prompt (the request's fields, the line to send): typing, erasing and
 * leaving are the same for both; the command it means otherwise, for the dialog to act on.
 */
function promptKey(s: Step, key: string | null, raw: string): Command | null {
  const input = translatePromptKey(s.model.bindings, key, raw);
  if (!input) return null;
  if ('text' in input) s.dialog({ type: 'type', text: input.text });
  else if ('erase' in input) s.dialog({ type: 'erase' });
  else if (input.command === 'dismiss') s.dialog({ type: 'close' });
  else return input.command;
  return null;
}

function requestKey(s: Step, key: string | null, raw: string): void {
  const d = s.model.dialogs.current;
  if (d?.kind !== 'request') return;
  const command = promptKey(s, key, raw);
  if (command !== 'next-field' && command !== 'accept') return;
  const name = d.name.trim();
  // The name is checked as it is left, before the message is typed: a refusal keeps the input, and
  // the field moves on only once the check (`name-checked`) says it is a name.
  if (d.field === 'name' && name !== '')
    return s.effect({ kind: 'check-name', request: { kind: 'request', run: d.runId, name } });
  if (command === 'next-field') return s.dialog({ type: 'next-field' });
  if (d.field === 'name' || name === '') {
    if (d.field === 'message') s.dialog({ type: 'next-field' });
    return;
  }
  s.dialog({ type: 'close' });
  s.effect({ kind: 'ask', request: { kind: 'request', run: d.runId, name, message: d.message.trim() || undefined } });
}

function sendKey(s: Step, key: string | null, raw: string): void {
  const d = s.model.dialogs.current;
  if (d?.kind !== 'send' || promptKey(s, key, raw) !== 'accept' || d.text.trim() === '') return;
  s.dialog({ type: 'close' });
  s.effect({ kind: 'ask', request: { kind: 'send', run: d.runId, members: [d.ref], text: d.text } });
}

function filterKey(s: Step, key: string | null, raw: string, frameOf: FrameOf): void {
  const input = translatePromptKey(s.model.bindings, key, raw);
  if (!input) return;
  const filter = s.model.ui.filter;
  if ('text' in input) return s.ui({ type: 'filter-text', text: filter + input.text });
  if ('erase' in input) return s.ui({ type: 'filter-text', text: [...filter].slice(0, -1).join('') });
  if (input.command === 'dismiss') return s.ui({ type: 'filter-clear' });
  if (input.command === 'accept') s.ui({ type: 'filter-accept', firstId: frameOf(s.model).view.runs[0]?.id ?? null });
}

/** The action a command asks for (its refusal is recorded like the CLI's), or null. */
function actionOf(command: Command): ActionKind | null {
  if (command.startsWith('answer-')) return 'answer';
  return (ACTION_KINDS as readonly string[]).includes(command) ? (command as ActionKind) : null;
}
