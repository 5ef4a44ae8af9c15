/**
 * A scripted stand-in for the OpenAI Responses API on 127.0.0.1 (an ephemeral port), for running the
 * real Codex CLI with no network. `POST /v1/responses` answers from a script of turns as server-sent
 * events, the way Codex reads them: `response.created`, per output item `response.output_item.added`
 * (text streamed as `response.output_text.delta`) and `response.output_item.done`, then
 * `response.completed` with the usage. `GET /v1/models` gets an empty list; any other path is a 404
 * the test can see in `requests`.
 *
 * A request takes the first turn of the script not yet used whose `when` holds (no `when`: any
 * request); with none left it gets a short text turn, so a CLI asking more than the script says (a
 * title for the thread) never hangs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One output item of a turn: a message, or a function call with its arguments (an object, sent as JSON text). */
export type Item =
  { type: 'text'; text: string } | { type: 'call'; name: string; args: Record<string, unknown>; callId?: string };

/** The usage a turn reports (Codex keeps it in its rollout as token counts). */
export interface Usage {
  input_tokens: number;
  cached_tokens?: number;
  output_tokens: number;
  reasoning_tokens?: number;
}

/** What a request looked like, as far as a script needs to choose its answer. */
export interface SeenRequest {
  method: string;
  path: string;
  model: string | null;
  /** The request's `input` items, untouched. */
  input: unknown[];
  /** The names of the tools offered. */
  tools: string[];
  /** The body, untouched (for fixtures and facts). */
  body: Record<string, unknown>;
}

export interface Turn {
  when?: (req: SeenRequest) => boolean;
  items: Item[];
  usage?: Partial<Usage>;
  /** Milliseconds between the events of the stream; default 0. */
  delayMs?: number;
}

export interface ResponsesApi {
  /** `http://127.0.0.1:<port>/v1`, the provider's `base_url`. */
  url: string;
  requests: SeenRequest[];
  pending(): number;
  push(...turns: Turn[]): void;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;
const MAX_SEEN = 500;
const DEFAULT_USAGE: Usage = { input_tokens: 3000, cached_tokens: 0, output_tokens: 20, reasoning_tokens: 0 };

/** The text of the request's last user message, or ''. */
export function lastUserText(req: SeenRequest): string {
  const users = (req.input as Array<{ type?: string; role?: string; content?: unknown }>).filter(
    (i) => i.role === 'user' && (i.type === undefined || i.type === 'message'),
  );
  const last = users[users.length - 1];
  if (!last || !Array.isArray(last.content)) return '';
  return last.content.map((c: { text?: unknown }) => (typeof c.text === 'string' ? c.text : '')).join('\n');
}

/** The output of a function call the request carries back after its last user message, or null when none. */
export function lastCallOutput(req: SeenRequest): string | null {
  const items = req.input as Array<{ type?: string; role?: string; output?: unknown }>;
  const userAt = items.findLastIndex((i) => i.role === 'user');
  const outs = items
    .slice(userAt + 1)
    .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output');
  const last = outs[outs.length - 1];
  if (!last) return null;
  return typeof last.output === 'string' ? last.output : JSON.stringify(last.output ?? null);
}

let ids = 0;

function outputItem(item: Item, n: number): Record<string, unknown> {
  if (item.type === 'text')
    return {
      type: 'message',
      id: `msg_standin_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: item.text, annotations: [] }],
    };
  return {
    type: 'function_call',
    id: `fc_standin_${n}`,
    status: 'completed',
    name: item.name,
    arguments: JSON.stringify(item.args),
    call_id: item.callId ?? `call_standin_${n}`,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(res: http.ServerResponse, turn: Turn, model: string): Promise<void> {
  const id = `resp_standin_${++ids}`;
  const u = { ...DEFAULT_USAGE, ...turn.usage };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = async (type: string, data: Record<string, unknown>) => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    if (turn.delayMs) await sleep(turn.delayMs);
  };
  await send('response.created', { response: { id, model, status: 'in_progress', output: [] } });
  for (const [index, item] of turn.items.entries()) {
    const done = outputItem(item, ++ids);
    await send('response.output_item.added', { output_index: index, item: { ...done, status: 'in_progress' } });
    if (item.type === 'text')
      await send('response.output_text.delta', { output_index: index, content_index: 0, delta: item.text });
    await send('response.output_item.done', { output_index: index, item: done });
  }
  await send('response.completed', {
    response: {
      id,
      model,
      status: 'completed',
      usage: {
        input_tokens: u.input_tokens,
        input_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
        output_tokens: u.output_tokens,
        output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
        total_tokens: u.input_tokens + u.output_tokens,
      },
    },
  });
  res.end();
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function seen(method: string, path: string, body: Record<string, unknown>): SeenRequest {
  const tools = Array.isArray(body.tools)
    ? (body.tools as Array<{ name?: unknown; type?: unknown }>).map((t) =>
        typeof t.name === 'string' ? t.name : String(t.type ?? '?'),
      )
    : [];
  return {
    method,
    path,
    model: typeof body.model === 'string' ? body.model : null,
    input: Array.isArray(body.input) ? body.input : [],
    tools,
    body,
  };
}

/** Starts the stand-in with a script; `close()` ends it. */
export async function startResponsesApi(script: Turn[] = []): Promise<ResponsesApi> {
  const turns = [...script];
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = req.method === 'POST' ? await readBody(req) : '';
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const url = (req.url ?? '').split('?')[0] ?? '';
      const s = seen(req.method ?? '', url, body);
      requests.push(s);
      if (requests.length > MAX_SEEN) requests.shift();
      if (req.method === 'GET' && url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ models: [], data: [] }));
        return;
      }
      if (req.method !== 'POST' || !url.endsWith('/responses')) {
        res.writeHead(404).end();
        return;
      }
      const at = turns.findIndex((t) => !t.when || t.when(s));
      const turn = at >= 0 ? turns.splice(at, 1)[0]! : { items: [{ type: 'text' as const, text: 'Done.' }] };
      await stream(res, turn, s.model ?? 'stand-in');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    pending: () => turns.length,
    push: (...t) => void turns.push(...t),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
