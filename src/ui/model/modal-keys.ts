/**
 * Keys while the help or a dialog is open: scrolling by the pages the frame on screen has, y and n
 * on a dialog (running its plan, answering a straggler offer), and `v` reading a held request whole.
 */
import { moveIndex, translateModalKey } from '../input/translate.js';
import type { ScreenMetrics } from '../metrics.js';
import { heldInput, unreadCut } from '../state/dialog-state.js';
import type { Step } from './step.js';

/** A key while the help is open. */
export function helpKey(s: Step, key: string | null, metrics: ScreenMetrics): void {
  if (key === null) return;
  const command = translateModalKey(s.model.bindings, key);
  if (command === 'help' || command === 'cancel') return s.ui({ type: 'help', open: false });
  const max = metrics.helpMax;
  const to = command
    ? moveIndex(command, { index: Math.min(s.model.ui.helpScroll, max), count: max + 1, page: metrics.page.runs })
    : null;
  if (to !== null) s.ui({ type: 'help-scroll', to });
}

/** A key while a dialog (not a prompt) is open. */
export function dialogKey(s: Step, key: string | null, metrics: ScreenMetrics): void {
  if (key === null) return;
  const command = translateModalKey(s.model.bindings, key);
  const d = s.model.dialogs.current;
  // A held request whose line leaves something out is read whole before y answers it.
  const unread = d && command === 'confirm' ? unreadCut(d) : null;
  if (unread !== null)
    return s.dialog({ type: 'peek', dialog: { kind: 'refusal', title: 'Read it whole first', reason: unread } });
  if (command === 'confirm') return confirm(s);
  if (command === 'cancel') return cancel(s);
  const input = d?.kind === 'confirm' && command === 'read' ? heldInput(d.plan) : null;
  // The request's whole input, read in front of the dialog that answers it (which comes back on close).
  if (input !== null) {
    s.dialog({ type: 'read-whole' });
    return s.dialog({
      type: 'peek',
      dialog: { kind: 'read', title: 'The whole input of the held request', text: input, scroll: 0 },
    });
  }
  if ((d?.kind !== 'confirm' && d?.kind !== 'read') || !command) return;
  const max = metrics.dialogMax;
  const to = moveIndex(command, { index: Math.min(d.scroll, max), count: max + 1, page: 5 });
  if (to !== null) s.dialog({ type: 'scroll', to });
}

/** y/Enter: a straggler offer is taken, a plan runs (a refused one only closes). */
function confirm(s: Step): void {
  const d = s.model.dialogs.current;
  if (!d) return;
  if (d.kind === 'offer-terminate') {
    s.dialog({ type: 'drop-offer', offerId: d.offerId });
    return s.effect({ kind: 'answer-offer', offerId: d.offerId, names: [...d.alive] });
  }
  s.dialog({ type: 'close' });
  if (d.kind === 'confirm' && !d.plan.refusal) s.effect({ kind: 'start', plan: d.plan });
}

/** n/Esc: a straggler offer is declined, any other dialog closes. */
function cancel(s: Step): void {
  const d = s.model.dialogs.current;
  if (!d) return;
  if (d.kind !== 'offer-terminate') return s.dialog({ type: 'close' });
  s.dialog({ type: 'drop-offer', offerId: d.offerId });
  s.effect({ kind: 'answer-offer', offerId: d.offerId, names: [] });
}
