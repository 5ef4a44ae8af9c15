/**
 * What an answer means in Codex's dialog, light (its description plans with it before any screen
 * reading loads): an option's number, `y` the plain Yes, `p` the "don't ask again", `n` or `esc` the
 * No, as the dialog's labels end (`(y)`, `(p)`, `(esc)`).
 */
import type { AgentPrompt, AgentPromptOption } from '../types.js';

/** The letter a choice's label ends with (`(y)`, `(p)`; `(esc)` for No). */
function shortcut(o: AgentPromptOption): string | null {
  return /\((\w+)\)$/.exec(o.label)?.[1] ?? null;
}

/** The option a choice means: its number, `y` the plain Yes, `n` the No (whatever their numbers). */
export function codexOption(p: AgentPrompt, choice: string): AgentPromptOption | null {
  const c = choice.toLowerCase();
  const exact = p.options.find((o) => o.key === c);
  if (exact) return exact;
  if (c === 'n') return p.options.find((o) => /^no\b/i.test(o.label)) ?? null;
  return p.options.find((o) => shortcut(o) === c) ?? null;
}
