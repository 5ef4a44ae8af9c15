/**
 * A scripted stand-in for an OpenAI-compatible chat completions API on 127.0.0.1 (an ephemeral
 * port), for running the real opencode CLI with no network: opencode's bundled
 * `@ai-sdk/openai-compatible` provider posts to `<baseURL>/chat/completions` and streams the answer
 * as server-sent `chat.completion.chunk`s ending in `data: [DONE]`.
 *
 * A request takes the first turn of the script not yet used whose `when` holds (no `when`: any
 * request); with none left it gets a short text turn, so a CLI asking more than the script says
 * (a title for the session, a summary) never hangs.
 */
import type http from 'node:http';
import { jsonServer, sendJson } from '../json-stand-in.js';
import type { AddressInfo } from 'node:net';

/** One part of an assistant turn: text, or a call of one of the CLI's tools (`bash`, …). */
export type Part = { type: 'text'; text: string } | { type: 'tool'; name: string; input: Record<string, unknown> };

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What a request looked like, as far as a script needs to choose its answer. */
export interface ChatRequest {
  method: string;
  path: string;
  model: string | null;
  stream: boolean;
  /** The conversation the CLI sent (`messages`), untouched. */
  messages: Array<{ role?: string; content?: unknown; tool_call_id?: string }>;
  /** The names of the tools offered. */
  tools: string[];
}

export interface ChatTurn {
  when?: (req: ChatRequest) => boolean;
  content: Part[];
  usage?: Partial<ChatUsage>;
  /** Milliseconds the stream stays open before it ends (a turn that takes a while); default 0. */
  delayMs?: number;
}

export interface ChatApi {
  /** `http://127.0.0.1:<port>/v1`, for the provider's `options.baseURL`. */
  url: string;
  /** Every request so far, in order (bounded: the last 500). */
  requests: ChatRequest[];
  pending(): number;
  push(...turns: ChatTurn[]): void;
  close(): Promise<void>;
}

const MAX_SEEN = 500;
const DEFAULT_USAGE: ChatUsage = { prompt_tokens: 1200, completion_tokens: 20 };

/** The text of a message's content (a string, or the text of its parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join('\n');
}

/** The text of the last user message, or ''. */
export function lastUserText(req: ChatRequest): string {
  return contentText(req.messages.findLast((m) => m.role === 'user')?.content);
}

/** The last message of the conversation when it is a tool's result (the turn after a tool ran or was refused). */
export function lastToolResult(req: ChatRequest): string | null {
  const last = req.messages.at(-1);
  return last?.role === 'tool' ? contentText(last.content) : null;
}

let callIds = 0;

function chunk(id: string, model: string, choice: Record<string, unknown> | null, usage?: ChatUsage): string {
  const body = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: choice ? [{ index: 0, ...choice }] : [],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function stream(res: http.ServerResponse, turn: ChatTurn, model: string, id: string): Promise<void> {
  const usage = { ...DEFAULT_USAGE, ...turn.usage };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(chunk(id, model, { delta: { role: 'assistant', content: '' }, finish_reason: null }));
  let tools = 0;
  for (const p of turn.content) {
    if (p.type === 'text') {
      res.write(chunk(id, model, { delta: { content: p.text }, finish_reason: null }));
      continue;
    }
    const call = {
      index: tools++,
      id: `call_standin_${++callIds}`,
      type: 'function',
      function: { name: p.name, arguments: JSON.stringify(p.input) },
    };
    res.write(chunk(id, model, { delta: { tool_calls: [call] }, finish_reason: null }));
  }
  if (turn.delayMs) await new Promise((r) => setTimeout(r, turn.delayMs));
  res.write(chunk(id, model, { delta: {}, finish_reason: tools > 0 ? 'tool_calls' : 'stop' }));
  res.write(chunk(id, model, null, usage));
  res.end('data: [DONE]\n\n');
}

/** Starts the stand-in with a script of turns. */
export async function startChatApi(script: ChatTurn[] = []): Promise<ChatApi> {
  const turns = [...script];
  const requests: ChatRequest[] = [];
  let ids = 0;
  const server = jsonServer((req, res, body) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const seen: ChatRequest = {
      method: req.method ?? 'GET',
      path,
      model: typeof body.model === 'string' ? body.model : null,
      stream: body.stream === true,
      messages: Array.isArray(body.messages) ? (body.messages as ChatRequest['messages']) : [],
      tools: Array.isArray(body.tools)
        ? body.tools.map((t: { function?: { name?: unknown } }) => String(t.function?.name))
        : [],
    };
    requests.push(seen);
    if (requests.length > MAX_SEEN) requests.shift();
    if (path.endsWith('/models')) return sendJson(res, 200, { object: 'list', data: [] });
    if (!path.endsWith('/chat/completions') || req.method !== 'POST') {
      return sendJson(res, 404, { error: { message: `no ${path} here`, type: 'not_found' } });
    }
    const at = turns.findIndex((t) => !t.when || t.when(seen));
    const turn = at >= 0 ? turns.splice(at, 1)[0]! : { content: [{ type: 'text' as const, text: 'Done.' }] };
    const id = `chatcmpl-standin-${++ids}`;
    const model = seen.model ?? 'standin-model';
    if (seen.stream) {
      stream(res, turn, model, id).catch(() => res.destroy());
      return;
    }
    const usage = { ...DEFAULT_USAGE, ...turn.usage };
    const text = turn.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
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
