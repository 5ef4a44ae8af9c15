/**
 * What the opencode tests (test/opencode/) and the fixture capture (scripts/capture-opencode-fixtures.ts)
 * script the stand-in model to do: a shell command asked for when the user's message holds a trigger,
 * and a turn that stays open a while. Only the conversation's own requests take them (they offer the
 * `bash` tool; the session's title request offers none).
 */
import type { ChatRequest, ChatTurn } from './chat-api.js';
import { lastToolResult, lastUserText } from './chat-api.js';

/** Whether a request is the conversation (not the title opencode asks for on the side). */
export const isConversation = (r: ChatRequest): boolean => r.tools.includes('bash');

/** A turn asking to run `command` with the bash tool when the user's last message holds `trigger`. */
export function bashTurn(trigger: string, command: string): ChatTurn {
  return {
    when: (r) => isConversation(r) && lastToolResult(r) === null && lastUserText(r).includes(trigger),
    content: [
      { type: 'text', text: 'Running it.' },
      { type: 'tool', name: 'bash', input: { command, description: `Runs ${command}` } },
    ],
  };
}

/** A text turn that stays open `ms` when the user's last message holds `trigger`. */
export function slowTurn(trigger: string, ms: number, tokens = 1200): ChatTurn {
  return {
    when: (r) => isConversation(r) && lastToolResult(r) === null && lastUserText(r).includes(trigger),
    content: [{ type: 'text', text: 'Thinking it over.' }],
    delayMs: ms,
    usage: { prompt_tokens: tokens },
  };
}

/** The next conversation request after the tool ran or was refused: what the model was told. */
export function toolResultSeen(requests: readonly ChatRequest[]): string | null {
  for (const r of requests) {
    const result = isConversation(r) ? lastToolResult(r) : null;
    if (result !== null) return result;
  }
  return null;
}

/** The question the stand-in model asks with opencode's question tool, and its options. */
export const COLOUR_QUESTION = 'Which colour should the button be?';
export const COLOURS = [
  { label: 'Red', description: 'A warm red' },
  { label: 'Blue', description: 'A cool blue' },
];

/** A turn calling the question tool (one question, one choice) when the user's last message holds `trigger`. */
export function questionTurn(trigger: string): ChatTurn {
  return {
    when: (r) => isConversation(r) && lastToolResult(r) === null && lastUserText(r).includes(trigger),
    content: [
      { type: 'text', text: 'Asking.' },
      {
        type: 'tool',
        name: 'question',
        input: { questions: [{ question: COLOUR_QUESTION, header: 'Colour', options: COLOURS }] },
      },
    ],
  };
}
