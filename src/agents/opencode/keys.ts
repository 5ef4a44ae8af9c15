/**
 * The keys opencode takes, light (a plan shows them before its module loads): Reject is Escape, the
 * dialog's own key for it wherever the selection is; Allow once is Enter once the selection, moved
 * with Right (it wraps), is read back on it (ways.ts reads it from the colours). A question of its
 * question tool is answered by its option's digit.
 */
import type { KeyTyping, SendKeys } from '../types.js';

/** The dialog's options in the order the selection moves through them. */
export const OPTION_LABELS = ['Allow once', 'Allow always', 'Reject'] as const;

function line(text: string): readonly SendKeys[] {
  return [['-l', '--', text], ['Enter']];
}

export const opencodeKeys = {
  // A question's option (never named like these: question-screen.ts) is its digit, which answers at once.
  answer: (o) =>
    o.label === 'Reject' ? [['Escape']] : (OPTION_LABELS as readonly string[]).includes(o.label) ? [] : [[o.key]],
  line,
  select: { order: OPTION_LABELS, next: ['Right'], confirm: ['Enter'], takes: ['Allow once'] },
  // The dialog takes keys as soon as it is drawn; a short wait lets a redraw settle.
  minDialogAgeMs: 300,
} satisfies KeyTyping;
