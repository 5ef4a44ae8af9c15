/**
 * Gemini CLI's reading and typing: its screen (screen.ts), a digit to answer (it selects and confirms
 * at once), a line typed then Enter as a key of its own, the session's jsonl for its context.
 */
import type { AgentWays } from '../types.js';
import { dialogGone, inputHolds, notAtInput, optionFor, readPrompt, readScreen } from './screen.js';
import { sessionUsage } from './session.js';

export const geminiCliWays: AgentWays = {
  screen: {
    read: readScreen,
    prompt: readPrompt,
    gone: dialogGone,
    option: optionFor,
    inputHolds,
    atInput: notAtInput,
  },
  typing: {
    answer: (o) => [['-l', '--', o.key]],
    line: (text) => [['-l', '--', text], ['Enter']],
    // Keys typed in one burst and an Enter right after them: the Enter is lost (seen while its
    // start-up hooks ran), and so, at times, is a carriage return right after a paste. Pasted whole,
    // with brackets, then a carriage return once the box draws the line, the line goes.
    submitAfterPaste: [['-H', '0D']],
    submitWhenDrawn: true,
    minDialogAgeMs: 300,
  },
  usage: (file) => sessionUsage(file),
};
