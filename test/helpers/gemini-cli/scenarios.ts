/**
 * What the Gemini CLI tests (test/gemini-cli/) and the fixture capture
 * (scripts/capture-gemini-fixtures.ts) script the stand-in model to do: a shell command asked for
 * when the user's message holds a trigger, and a turn that takes a while.
 */
import type { GeminiRequest, GeminiTurn } from './gemini-api.js';
import { lastFunctionResponse, lastUserText } from './gemini-api.js';

/** A turn asking to run `command` with `run_shell_command` when the user's last message holds `trigger`. */
export function shellTurn(trigger: string, command: string): GeminiTurn {
  return {
    when: (r) => lastFunctionResponse(r) === null && lastUserText(r).includes(trigger),
    parts: [
      { text: 'Running it.' },
      { functionCall: { name: 'run_shell_command', args: { command, description: `Runs ${command}` } } },
    ],
  };
}

/** A text turn answered after `ms` when the user's last message holds `trigger`. */
export function slowTurn(trigger: string, ms: number, promptTokens = 1200): GeminiTurn {
  return {
    when: (r) => lastFunctionResponse(r) === null && lastUserText(r).includes(trigger),
    parts: [{ text: 'Thinking it over.' }],
    delayMs: ms,
    promptTokens,
  };
}

/** The first function response the stand-in was sent: what the model was told after the tool ran. */
export function functionResponseSeen(requests: readonly GeminiRequest[]): Record<string, unknown> | null {
  for (const r of requests) {
    const f = r.verb === 'streamGenerateContent' ? lastFunctionResponse(r) : null;
    if (f) return f;
  }
  return null;
}
