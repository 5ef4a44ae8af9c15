/** What an answer names in opencode's dialog, light (its description plans with it). */
import type { AgentPrompt, AgentPromptOption } from '../types.js';

import { OPTION_LABELS } from './keys.js';

/** Whether a prompt is the permission dialog (its three options), not a question of the question tool. */
export function isPermission(p: AgentPrompt): boolean {
  return p.options.length === OPTION_LABELS.length && p.options.every((o, i) => o.label === OPTION_LABELS[i]);
}

/**
 * The option a choice names in the dialog (`1`/`y` Allow once, `2` Allow always, `3`/`n` Reject), or
 * in a question (its option's number), for answering through the server.
 */
export function optionNamed(p: AgentPrompt, choice: string): AgentPromptOption | null {
  if (!isPermission(p)) return p.options.find((o) => o.key === choice) ?? null;
  const key = choice === 'y' ? '1' : choice === 'n' ? '3' : choice;
  return p.options.find((o) => o.key === key) ?? null;
}
