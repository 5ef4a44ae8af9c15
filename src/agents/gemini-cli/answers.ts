/** What an answer means in Gemini CLI's dialog, light (its description plans with it). */
import type { AgentPrompt, AgentPromptOption } from '../types.js';

/** The option a choice means: its digit; `y` the first option, `n` the one that says No. */
export function optionFor(p: AgentPrompt, choice: string): AgentPromptOption | null {
  if (choice === 'y') return p.options[0] ?? null;
  if (choice === 'n') return p.options.find((o) => /^No\b/.test(o.label)) ?? null;
  return p.options.find((o) => o.key === choice) ?? null;
}
