/** The keys Gemini CLI takes, light (a plan shows them before its module loads). */
import type { KeyTyping } from '../types.js';

export const geminiKeys = {
  // A digit selects and confirms at once.
  answer: (o) => [['-l', '--', o.key]],
  line: (text) => [['-l', '--', text], ['Enter']],
  // Keys typed in one burst and an Enter right after them: the Enter is lost (seen while its
  // start-up hooks ran), and so, at times, is a carriage return right after a paste. Pasted whole,
  // with brackets, then a carriage return once the box draws the line, the line goes.
  submitAfterPaste: [['-H', '0D']],
  submitWhenDrawn: true,
  minDialogAgeMs: 300,
} satisfies KeyTyping;
