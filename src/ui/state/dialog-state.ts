/**
 * Dialogs as a reducer: the confirm dialog of a plan, a refusal, the request prompt and the
 * straggler offer of a running checkpoint. One shows at a time; later ones queue behind it.
 */
import type { ActionPlan } from '../../kit/types.js';

/** A dialog on screen. */
export type Dialog =
  /**
   * Shows exactly the plan's title, what it approves and its effects; y runs it. A held request
   * whose line leaves something out must be read whole (`v`) first: `read` says it was.
   */
  | { kind: 'confirm'; plan: ActionPlan; scroll: number; read?: boolean }
  /** Why an action cannot run. */
  | { kind: 'refusal'; title: string; reason: string }
  /** A gate's whole text, to read before granting. */
  | { kind: 'read'; title: string; text: string; scroll: number }
  /** The name and message of a harness checkpoint request. */
  | {
      kind: 'request';
      runId: string;
      field: 'name' | 'message';
      name: string;
      message: string;
      /** Why the name typed is not a checkpoint name, said as soon as it is left (the input is kept). */
      problem?: string;
    }
  /** A line to type to a member (`send`). */
  | { kind: 'send'; runId: string; member: string; ref: string; text: string }
  /** Teammates still alive during a checkpoint: force-terminate them? `offerId` matches the waiting promise. */
  | { kind: 'offer-terminate'; offerId: number; runId: string; alive: readonly string[] };

export interface DialogState {
  current: Dialog | null;
  queue: readonly Dialog[];
}

export type DialogAction =
  | { type: 'open'; dialog: Dialog }
  /** Shows a dialog in front of the current one, which comes back when it closes. */
  | { type: 'peek'; dialog: Dialog }
  | { type: 'close' }
  /** Closes the straggler offer with this id wherever it is (its action ended). */
  | { type: 'drop-offer'; offerId: number }
  | { type: 'scroll'; to: number }
  /** The confirm dialog's held request was read whole (`v`): y may run it. */
  | { type: 'read-whole' }
  | { type: 'type'; text: string }
  | { type: 'erase' }
  | { type: 'next-field' }
  /** Says why the request's name cannot be used, keeping what was typed. */
  | { type: 'name-problem'; problem: string };

export const NO_DIALOG: DialogState = { current: null, queue: [] };

/** The whole input of the held permission request a plan answers through the hook, or null. */
export function heldInput(plan: ActionPlan): string | null {
  return plan.detail?.kind === 'answer' ? (plan.detail.hook?.input ?? null) : null;
}

/**
 * Why y cannot run a confirm dialog yet, or null: the held request it answers shows a line that
 * leaves something out, and its whole input was not read with `v`.
 */
export function unreadCut(d: Dialog): string | null {
  if (d.kind !== 'confirm' || d.read || d.plan.refusal) return null;
  const hook = d.plan.detail?.kind === 'answer' ? d.plan.detail.hook : null;
  return hook?.cut
    ? "the request's line in this dialog leaves part of its input out: press v to read it whole first, then y"
    : null;
}

/** Applies one action. */
export function dialogReducer(state: DialogState, action: DialogAction): DialogState {
  const d = state.current;
  switch (action.type) {
    case 'open':
      return d ? { ...state, queue: [...state.queue, action.dialog] } : { current: action.dialog, queue: state.queue };
    case 'peek':
      return { current: action.dialog, queue: d ? [d, ...state.queue] : state.queue };
    case 'close':
      return { current: state.queue[0] ?? null, queue: state.queue.slice(1) };
    case 'drop-offer': {
      const isIt = (x: Dialog) => x.kind === 'offer-terminate' && x.offerId === action.offerId;
      const queue = state.queue.filter((x) => !isIt(x));
      if (d && isIt(d)) return { current: queue[0] ?? null, queue: queue.slice(1) };
      return queue.length === state.queue.length ? state : { ...state, queue };
    }
    case 'read-whole':
      return d?.kind === 'confirm' ? { ...state, current: { ...d, read: true } } : state;
    case 'scroll':
      return d?.kind === 'confirm' || d?.kind === 'read'
        ? { ...state, current: { ...d, scroll: Math.max(0, action.to) } }
        : state;
    case 'type':
      if (d?.kind === 'send') return { ...state, current: { ...d, text: d.text + action.text } };
      if (d?.kind !== 'request') return state;
      return { ...state, current: { ...d, [d.field]: d[d.field] + action.text, problem: undefined } };
    case 'erase':
      if (d?.kind === 'send') return { ...state, current: { ...d, text: [...d.text].slice(0, -1).join('') } };
      if (d?.kind !== 'request') return state;
      return { ...state, current: { ...d, [d.field]: [...d[d.field]].slice(0, -1).join(''), problem: undefined } };
    case 'next-field':
      if (d?.kind !== 'request') return state;
      return { ...state, current: { ...d, field: d.field === 'name' ? 'message' : 'name' } };
    case 'name-problem':
      if (d?.kind !== 'request') return state;
      return { ...state, current: { ...d, field: 'name', problem: action.problem } };
  }
}
