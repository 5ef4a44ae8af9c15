/**
 * opencode's reading and typing where there is no server to ask (or before it answers): its screen,
 * and keys. An answer by keys never relies on where the selection is: Reject is Escape (the dialog's
 * own key for it). Allow once would be Enter while the selection is on it, which shows only in
 * colour (`selectedOption` reads a capture with escapes); Allow always asks a second Confirm: both
 * are answered through the server by request id (server.ts), never typed on a guess.
 */
import type { AgentWays, SendKeys } from '../types.js';
import { dialogGone, inputHolds, notAtInput, optionFor, readPrompt, readScreen } from './screen.js';

function line(text: string): readonly SendKeys[] {
  return [['-l', '--', text], ['Enter']];
}

export const opencodeWays: AgentWays = {
  screen: {
    read: readScreen,
    prompt: readPrompt,
    gone: dialogGone,
    option: optionFor,
    inputHolds,
    atInput: notAtInput,
  },
  typing: {
    // Only Reject is typed (screen.ts, optionFor): Escape, the dialog's own key for it.
    answer: (o) => (o.label === 'Reject' ? [['Escape']] : []),
    line,
    // The dialog takes keys as soon as it is drawn; a short wait lets a redraw settle.
    minDialogAgeMs: 300,
  },
  // opencode keeps its conversation in a SQLite database, not a file per session: its context comes
  // from the server (state.ts), and there is none without one.
  usage: () => null,
};
