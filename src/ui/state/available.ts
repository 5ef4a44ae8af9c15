/**
 * Which commands apply right now, for the footer: the keymap says what a key means, the command
 * specs say whether it means anything for the current selection. Pure.
 */
import type { Command } from '../../keys/keymap.js';
import type { Dialog } from './dialog-state.js';
import { heldInput } from './dialog-state.js';
import { screenHints } from '../commands/screen-commands.js';
import { memberInView } from './requests.js';
import type { ScreenView } from './view.js';
import type { PaneId } from './ui-state.js';

/** Where input goes now. */
export interface Situation {
  view: ScreenView;
  focus: PaneId;
  help: boolean;
  dialog: Dialog | null;
  filtering: boolean;
  filter: string;
  /** Whether a running action can be cancelled with Esc (a checkpoint). */
  cancellable: boolean;
  /** Whether the confirm dialog has more lines than fit (so scrolling applies). */
  dialogScrolls?: boolean;
  /** Whether notifications are muted (the footer offers to unmute). */
  muted?: boolean;
}

/** A footer hint: the command and the word for what it does here. */
export interface Hint {
  command: Command;
  label: string;
}

const h = (command: Command, label: string): Hint => ({ command, label });

/** The hints that apply now, most important first. */
export function availableHints(s: Situation): Hint[] {
  if (s.help) return [h('down', 'scroll'), h('help', 'close'), h('force-quit', 'quit')];
  const d = s.dialog;
  if (d) {
    switch (d.kind) {
      case 'confirm':
        return d.plan.refusal
          ? [h('cancel', 'close')]
          : [
              h('confirm', 'run it'),
              h('cancel', 'cancel'),
              ...(heldInput(d.plan) !== null ? [h('read', 'whole input')] : []),
              ...(s.dialogScrolls ? [h('down', 'scroll')] : []),
            ];
      case 'refusal':
        return [h('cancel', 'close')];
      case 'read':
        return [h('cancel', 'close'), ...(s.dialogScrolls ? [h('down', 'scroll')] : [])];
      case 'offer-terminate':
        return [h('confirm', 'terminate them'), h('cancel', 'leave them')];
      case 'request':
        return [
          h('accept', d.field === 'name' ? 'next' : 'request'),
          h('next-field', 'switch field'),
          h('dismiss', 'cancel'),
        ];
      case 'send':
        return [h('accept', 'plan it'), h('dismiss', 'cancel')];
    }
  }
  if (s.filtering) return [h('accept', 'keep filter'), h('dismiss', 'clear filter')];
  return mainHints(s);
}

/** The main screen's hints: from the command specs, so the footer offers exactly what a key would do. */
function mainHints(s: Situation): Hint[] {
  return screenHints({
    view: s.view,
    run: s.view.run,
    focus: s.focus,
    member: memberInView(s.focus, s.view.member),
    gate: s.view.gate,
    filter: s.filter,
    cancellable: s.cancellable,
    muted: s.muted ?? false,
  });
}

export { backMeaning } from '../commands/screen-commands.js';
