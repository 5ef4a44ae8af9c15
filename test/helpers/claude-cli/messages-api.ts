/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1 (an ephemeral port), for running
 * the real Claude Code CLI with no network. `POST /v1/messages` answers from a script of turns, as
 * server-sent events when the request asks to stream (the CLI always does for its conversation)
 * and as one JSON message otherwise; `count_tokens` and the model list get minimal answers; any
 * other path is a 404 the test can see in `requests`.
 *
 * A request takes the first turn of the script not yet used whose `when` holds (no `when`: any
 * request); with none left it gets a short text turn, so a CLI asking more than the script says
 * (a teammate's extra turn, a summary) never hangs.
 */
import type http from 'node:http';
import { jsonServer, sendJson } from '../json-stand-in.js';
import type { AddressInfo } from 'node:net';

/** One block of an assistant turn. */
export type Block =
  { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

/** The usage the turn reports (the CLI's context gauge and the transcript both take it). */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** What a request looked like, as far as a script needs to choose its answer. */
export interface SeenRequest {
  method: string;
  path: string;
  model: string | null;
  stream: boolean;
  /** The conversation the CLI sent (`messages`), untouched. */
  messages: unknown[];
  /** The system prompt flattened to text. */
  system: string;
  /** The names of the tools offered. */
  tools: string[];
}

export interface Turn {
  /** Which request this turn answers; default any. */
  when?: (req: SeenRequest) => boolean;
  content: Block[];
  /** Default: `tool_use` when a block is one, else `end_turn`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  usage?: Partial<Usage>;
  /** Milliseconds between the events of the stream (a turn that takes a while); default 0. */
  delayMs?: number;
}

export interface MessagesApi {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request so far, in order (bounded: the last 500). */
  requests: SeenRequest[];
  /** Turns not yet taken. */
  pending(): number;
  /** Adds turns at the end of the script. */
  push(...turns: Turn[]): void;
  close(): Promise<void>;
}

const MAX_SEEN = 500;
const DEFAULT_USAGE: Usage = { input_tokens: 1200, output_tokens: 20 };

/** The last message of the user's role (2.1.332 puts a `system` message after it). */
function lastUser(req: SeenRequest): { content?: unknown } | undefined {
  return (req.messages as Array<{ role?: string; content?: unknown }>).findLast((m) => m.role === 'user');
}

/** The text of the last user message (its text blocks and tool results joined), or ''. */
export function lastUserText(req: SeenRequest): string {
  const last = lastUser(req);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return '';
  return last.content
    .map((b: { type?: string; text?: unknown; content?: unknown }) =>
      b.type === 'text' && typeof b.text === 'string'
        ? b.text
        : b.type === 'tool_result'
          ? JSON.stringify(b.content ?? '')
          : '',
    )
    .join('\n');
}

/** Whether the last user message carries a tool result (the turn after a tool ran). */
export function afterToolResult(req: SeenRequest): boolean {
  const last = lastUser(req);
  return Array.isArray(last?.content) && last.content.some((b: { type?: string }) => b.type === 'tool_result');
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system))
    return system.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('\n');
  return '';
}

let toolIds = 0;

function blocksOf(turn: Turn): Array<Record<string, unknown>> {
  return turn.content.map((b) =>
    b.type === 'text'
      ? { type: 'text', text: b.text }
      : { type: 'tool_use', id: b.id ?? `toolu_standin_${++toolIds}`, name: b.name, input: b.input },
  );
}

function usageOf(turn: Turn): Required<Usage> {
  return {
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...DEFAULT_USAGE,
    ...turn.usage,
  } as Required<Usage>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(res: http.ServerResponse, turn: Turn, model: string, id: string): Promise<void> {
  const blocks = blocksOf(turn);
  const usage = usageOf(turn);
  const stop = turn.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = async (type: string, data: Record<string, unknown>) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    if (turn.delayMs) await sleep(turn.delayMs);
  };
  await send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  for (const [index, b] of blocks.entries()) {
    if (b.type === 'text') {
      await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      await send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
    } else {
      await send('content_block_start', { index, content_block: { ...b, input: {} } });
      await send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
      });
    }
    await send('content_block_stop', { index });
  }
  await send('message_delta', {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  await send('message_stop', {});
  res.end();
}

/** Starts the stand-in with a script of turns. */
export async function startMessagesApi(script: Turn[] = []): Promise<MessagesApi> {
  const turns = [...script];
  const requests: SeenRequest[] = [];
  let messageIds = 0;
  const server = jsonServer((req, res, body) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path,
      model: typeof body.model === 'string' ? body.model : null,
      stream: body.stream === true,
      messages: Array.isArray(body.messages) ? body.messages : [],
      system: systemText(body.system),
      tools: Array.isArray(body.tools) ? body.tools.map((t: { name?: unknown }) => String(t.name)) : [],
    };
    requests.push(seen);
    if (requests.length > MAX_SEEN) requests.shift();
    if (path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: DEFAULT_USAGE.input_tokens });
    if (path === '/v1/models') return sendJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
    if (path !== '/v1/messages' || req.method !== 'POST') {
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no ${path} here` } });
    }
    const at = turns.findIndex((t) => !t.when || t.when(seen));
    const turn = at >= 0 ? turns.splice(at, 1)[0]! : { content: [{ type: 'text' as const, text: 'Done.' }] };
    const id = `msg_standin_${++messageIds}`;
    const model = seen.model ?? 'claude-opus-5-5';
    if (seen.stream) {
      stream(res, turn, model, id).catch(() => res.destroy());
      return;
    }
    const usage = usageOf(turn);
    sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: blocksOf(turn),
      stop_reason: turn.stopReason ?? 'end_turn',
      stop_sequence: null,
      usage,
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pending: () => turns.length,
    push: (...more) => void turns.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
