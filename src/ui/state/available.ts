/**
 * Which commands apply right now, for the footer: the keymap says what a key means, this says
 * whether it means anything for the current selection. Pure.
 */
import { systemOf } from '../../systems/registry.js';
import type { Command } from '../keymap.js';
import type { Dialog } from './dialog-state.js';
import { canCheckpoint, grantableGates, leadWithPane, liveTeammates } from './selectors.js';
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
        return d.plan.refusal ? [h('cancel', 'close')] : [h('confirm', 'run it'), h('cancel', 'cancel'), ...(s.dialogScrolls ? [h('down', 'scroll')] : [])];
      case 'refusal':
        return [h('cancel', 'close')];
      case 'read':
        return [h('cancel', 'close'), ...(s.dialogScrolls ? [h('down', 'scroll')] : [])];
      case 'offer-terminate':
        return [h('confirm', 'terminate them'), h('cancel', 'leave them')];
      case 'request':
        return [h('accept', d.field === 'name' ? 'next' : 'request'), h('next-field', 'switch field'), h('dismiss', 'cancel')];
    }
  }
  if (s.filtering) return [h('accept', 'keep filter'), h('dismiss', 'clear filter')];
  return [...actionHints(s), ...navigationHints(s)];
}

function actionHints(s: Situation): Hint[] {
  const run = s.view.run;
  if (!run) return [];
  const out: Hint[] = [];
  if (canCheckpoint(run)) out.push(h('checkpoint', 'checkpoint'));
  if (grantableGates(run).length > 0) out.push(h('grant', 'grant'));
  const member = s.focus === 'team' ? s.view.member : null;
  if (member ? Boolean(member.paneId) : liveTeammates(run).length > 0) out.push(h('terminate', member ? `terminate ${member.name}` : 'terminate'));
  if (canCheckpoint(run)) out.push(h('rehydrate', 'rehydrate'));
  if (systemOf(run.system).requests) out.push(h('request', 'request'));
  if (s.focus === 'gates' && s.view.gate) out.push(h('read', 'read gate'));
  const target = member ?? leadWithPane(run);
  if (target?.paneId && target.state !== 'dead') out.push(h('attach', 'attach'));
  return out;
}

function navigationHints(s: Situation): Hint[] {
  const out: Hint[] = [h('focus-next', 'panes'), h('filter', 'filter')];
  const back = backMeaning(s);
  if (back) out.push(h('back', back));
  out.push(h('help', 'help'), h('quit', 'quit'));
  return out;
}

/** What Esc does outside dialogs and prompts: clear the filter, go back to the runs list, or cancel. */
export function backMeaning(s: Pick<Situation, 'filter' | 'focus' | 'cancellable'>): 'clear filter' | 'back' | 'cancel checkpoint' | null {
  if (s.focus !== 'runs') return 'back';
  if (s.filter !== '') return 'clear filter';
  if (s.cancellable) return 'cancel checkpoint';
  return null;
}
