/** The keys Claude Code takes, light (a plan shows them before its module loads). */
import { MIN_DIALOG_AGE_MS } from '../../store/prompt-reading.js';
import type { KeyTyping, SendKeys } from '../types.js';

/** Claude Code takes a key typed as literal text, then a raw carriage return as a call of its own. */
function typed(text: string): readonly SendKeys[] {
  return [
    ['-l', '--', text],
    ['-H', '0D'],
  ];
}

export const claudeCodeKeys = {
  answer: (o) => typed(o.key),
  line: typed,
  // Keys typed into a dialog it has just drawn are dropped (test/bench/dialog-age.bench.ts).
  minDialogAgeMs: MIN_DIALOG_AGE_MS,
} satisfies KeyTyping;
