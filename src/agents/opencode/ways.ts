/**
 * opencode's reading and typing where there is no server to ask (or before it answers): its screen,
 * and keys. An answer by keys never relies on where the selection is: Reject is Escape (the dialog's
 * own key for it); Allow once is Enter only while the selection is on it, which the action checks on
 * a capture with escapes (`selectedOption`) right before; Allow always asks a second Confirm/Cancel,
 * so it is answered through the server only.
 */
import type { AgentWays, SendKeys } from '../types.js';
import { dialogGone, optionFor, readPrompt, readScreen } from './screen.js';

function line(text: string): readonly SendKeys[] {
  return [['-l', '--', text], ['Enter']];
}

export const opencodeWays: AgentWays = {
  screen: { read: readScreen, prompt: readPrompt, gone: dialogGone, option: optionFor },
  typing: {
    answer: (o) => (o.label === 'Reject' ? [['Escape']] : o.label === 'Allow once' ? [['Enter']] : []),
    line,
    // The dialog takes keys as soon as it is drawn; a short wait lets a redraw settle.
    minDialogAgeMs: 300,
  },
  // opencode keeps its conversation in a SQLite database, not a file per session: its context comes
  // from the server (state.ts), and there is none without one.
  usage: () => null,
  cycle: {
    clear: { command: '/new' },
    compact: { command: '/compact' },
  },
};
