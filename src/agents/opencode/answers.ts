/** What an answer names in opencode's dialog, light (its description plans with it). */
import type { AgentPrompt, AgentPromptOption } from '../types.js';

/**
 * The option a choice names in the dialog (`1`/`y` Allow once, `2` Allow always, `3`/`n` Reject), for
 * answering through the server.
 */
export function optionNamed(p: AgentPrompt, choice: string): AgentPromptOption | null {
  const key = choice === 'y' ? '1' : choice === 'n' ? '3' : choice;
  return p.options.find((o) => o.key === key) ?? null;
}
