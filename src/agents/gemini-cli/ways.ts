/**
 * Gemini CLI's reading and typing: its screen (screen.ts), a digit to answer (it selects and confirms
 * at once), a line typed then Enter as a key of its own, the session's jsonl for its context.
 */
import { geminiKeys } from './keys.js';
import type { AgentWays } from '../types.js';
import { dialogGone, inputHolds, notAtInput, optionFor, readPrompt, readScreen } from './screen.js';
import { sessionUsage } from './session.js';
import { geminiWaitsForPermission } from './waits.js';

export const geminiCliWays: AgentWays = {
  screen: {
    read: readScreen,
    prompt: readPrompt,
    gone: dialogGone,
    option: optionFor,
    inputHolds,
    atInput: notAtInput,
  },
  typing: geminiKeys,
  usage: (file) => sessionUsage(file),
  waitsForPermission: (pane) => Promise.resolve(geminiWaitsForPermission(pane)),
};
