/**
 * The keys Codex takes, light (a plan shows them before its module loads). A choice in its dialog is
 * one key and takes effect at once (`1`, `y`, `n`: no Enter; an Enter after it would land in the
 * input box that comes back). A line goes in as one bracketed paste, then a carriage return: keys
 * typed in one burst are taken for an unbracketed paste, and a carriage return soon after them is a
 * newline, not a submit (seen with 150 and 200 ms between the text and the carriage return; a
 * bracketed paste was submitted every time).
 */
import type { KeyTyping } from '../types.js';

export const codexKeys = {
  answer: (o) => [['-l', '--', o.key]],
  line: (text) => [
    ['-l', '--', text],
    ['-H', '0D'],
  ],
  submitAfterPaste: [['-H', '0D']],
  // Seen taking a key 0.3 s after the dialog showed; kept as Claude Code's wait.
  minDialogAgeMs: 600,
} satisfies KeyTyping;
