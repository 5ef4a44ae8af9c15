/**
 * opencode's reading and typing. Where the pane's process serves (`opencode --port N`), its server is
 * followed for the state and answers go to it by request id (follow.ts, requests.ts). Where there is
 * none, its screen and keys: Reject is Escape (the dialog's own key for it, wherever the selection
 * is); Allow once is Enter once the selection, moved with Right (it wraps), is read back on it from
 * the colours (`selectedOption`); Allow always asks a second Confirm and is never typed. A server
 * that asks for a password gets the one the operator gave tower on this box (password.ts).
 */
import type { AgentWays } from '../types.js';
import { opencodeKeys } from './keys.js';
import { OpencodeFollow } from './follow.js';
import { answerBySignature, portOfSignature } from './requests.js';
import { dialogGone, inputHolds, notAtInput, optionFor, readPrompt, readScreen, selectedOption } from './screen.js';
import { ANSWER_TIMEOUT_MS, portOf } from './server.js';
import { readPassword } from './password.js';
import { opencodeWaitsForPermission } from './waits.js';

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
    ...opencodeKeys,
    select: { ...opencodeKeys.select, selected: selectedOption },
  },
  // opencode keeps its conversation in a SQLite database, not a file per session: its context comes
  // from the server (state.ts), and there is none without one.
  usage: () => null,
  server: {
    portOf,
    follow: (port, onChange) => new OpencodeFollow(port, onChange),
    answer: (port, signature, choice) => {
      const { password } = readPassword();
      return answerBySignature(port, signature, choice, {
        timeoutMs: ANSWER_TIMEOUT_MS,
        ...(password ? { password } : {}),
      });
    },
    portOfSignature,
  },
  waitsForPermission: (pane) => opencodeWaitsForPermission(pane),
};
