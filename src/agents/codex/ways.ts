/**
 * Codex's reading and typing. A choice in its dialog is one key and takes effect at once (`1`, `y`,
 * `n`: no Enter; an Enter after it would land in the input box that comes back). A line goes in as
 * one bracketed paste, then a carriage return: keys typed in one burst are taken for an unbracketed
 * paste, and a carriage return soon after them is a newline, not a submit (seen with 150 and 200 ms
 * between the text and the carriage return; a bracketed paste was submitted every time).
 */
import type { AgentWays } from '../types.js';
import { codexKeys } from './keys.js';
import { rolloutUsage } from './rollout.js';
import { CodexStates } from './state.js';
import { codexWaitsForPermission } from './waits.js';
import { codexCleared, codexCompacted } from './cycle.js';
import { codexOption } from './answers.js';
import { codexDialogGone, codexInputHolds, codexNotAtInput, codexPrompt, readCodexScreen } from './screen.js';

export const codexWays: AgentWays = {
  state: () => new CodexStates(),
  screen: {
    read: readCodexScreen,
    prompt: codexPrompt,
    gone: codexDialogGone,
    option: codexOption,
    inputHolds: codexInputHolds,
    atInput: codexNotAtInput,
  },
  typing: codexKeys,
  usage: rolloutUsage,
  cycle: { cleared: codexCleared, compacted: codexCompacted },
  waitsForPermission: (pane) => codexWaitsForPermission(pane),
};
