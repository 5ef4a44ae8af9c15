/**
 * `.last_signal_context` holds the raw lines around a signal as `claude -p --output-format
 * stream-json` printed them (bin/orchestrate-v2.sh `run_claude_cycle`). What a person wants to read
 * is the text inside: the assistant's text blocks and the final result, not the JSON. Pure.
 */
import { sanitize } from '../../text/sanitize.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text of one stream-json event, or null when it carries none worth showing. */
function eventText(v: Record<string, unknown>): string | null {
  if (v.type === 'assistant' && isObject(v.message) && Array.isArray(v.message.content)) {
    const parts = v.message.content
      .filter(isObject)
      .flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []));
    return parts.length > 0 ? parts.join('\n') : null;
  }
  if (v.type === 'result' && typeof v.result === 'string') return v.result;
  return null;
}

/**
 * The readable text of a signal context: text of the stream-json events, lines that are not JSON
 * kept as they are (older contexts are plain text), tool results and system events left out.
 */
export function signalContextText(raw: string): string {
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    let parsed: unknown = undefined;
    if (trimmed.startsWith('{')) {
      try {
        parsed = JSON.parse(trimmed);
      } catch {
        parsed = undefined;
      }
    }
    if (isObject(parsed)) {
      const text = eventText(parsed);
      if (text !== null && text.trim() !== '') out.push(text.trim());
    } else {
      out.push(trimmed);
    }
  }
  return sanitize(out.join('\n')).trim();
}
