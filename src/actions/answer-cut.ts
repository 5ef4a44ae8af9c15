/** The one refusal an answer's plan and its run share: a dialog taller than the pane. */
import { noOption } from '../store/prompt-reading.js';
import type { PanePrompt, PromptOption } from '../store/prompt-reading.js';

/**
 * Why `option` may not be chosen in a dialog whose top is out of sight, or null: tower cannot show
 * what it would approve, so only the option that says No is typed into it.
 */
export function cutRefusal(p: PanePrompt, option: PromptOption, what: string): string | null {
  if (!p.cut || noOption(p) === option) return null;
  return (
    `${what} is taller than the pane (${p.cut}): ` +
    `tower cannot show what ${option.key}. ${option.label} would approve; ` +
    'attach to the pane (tower attach) and answer it there, or answer n'
  );
}
