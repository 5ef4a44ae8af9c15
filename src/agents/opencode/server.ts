/**
 * opencode's own HTTP server, the exact source of its state where there is one. It listens only when
 * opencode is started with `--port N` (the pane's process is then `opencode --port N`, so the port is
 * in its command line), on 127.0.0.1. What 1.18.33 serves (test/fixtures/opencode-1.18.33/server/):
 * `GET /event` streams `session.status` (busy / idle), `permission.asked` (with the command),
 * `permission.replied`, `session.idle`, `message.updated` (an assistant message's tokens);
 * `GET /permission` lists the requests waiting; `POST /permission/{id}/reply {"reply": …}` answers one
 * and the TUI's dialog closes. Pending requests live in the server's memory only.
 *
 * The server is untrusted input like a pane: every body is parsed against a schema, each read is
 * bounded in time and bytes, lists and the event buffer are capped. With `OPENCODE_SERVER_PASSWORD`
 * set, opencode asks for basic auth: tower sends one only when the operator gave it one.
 */
import { z } from 'zod';

/** How long one request to the server may take (a loaded box's opencode answered a list in over 2 s). */
export const REQUEST_TIMEOUT_MS = 5000;
/** How long an answer may take: the list read again, then the reply (the operator waits on it). */
export const ANSWER_TIMEOUT_MS = 10_000;
/** The most of a body read (the permission list, a reply). */
export const MAX_BODY_BYTES = 256 * 1024;
/** The most of one event read; a longer one is skipped (a message part can be big). */
export const MAX_EVENT_BYTES = 256 * 1024;
/** The most pending requests taken from one list. */
export const MAX_PENDING = 50;
const MAX_TEXT = 4096;

const text = z.string().max(MAX_TEXT);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/);

/** One permission request waiting, as `GET /permission` and `permission.asked` give it. */
export const PermissionSchema = z.object({
  id,
  sessionID: id,
  permission: text,
  patterns: z.array(text).max(50).optional(),
  metadata: z.object({ command: text.optional() }).passthrough().optional(),
});
export type Permission = z.infer<typeof PermissionSchema>;

/** One question of a request its question tool asks: its options, each a label and what it means. */
const QuestionInfoSchema = z.object({
  question: text,
  header: text.optional(),
  options: z.array(z.object({ label: text, description: text.optional() })).max(50),
  multiple: z.boolean().optional(),
  custom: z.boolean().optional(),
});

/** One question request waiting, as `GET /question` and `question.asked` give it. */
export const QuestionSchema = z.object({
  id,
  sessionID: id,
  questions: z.array(QuestionInfoSchema).max(20),
});
export type QuestionRequest = z.infer<typeof QuestionSchema>;

const TokensSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  reasoning: z.number().nonnegative().optional(),
  cache: z.object({ read: z.number().nonnegative(), write: z.number().nonnegative() }).optional(),
});

/** The events tower reads from `GET /event`; others are skipped. */
export const EventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session.status'),
    properties: z.object({ sessionID: id, status: z.object({ type: z.string().max(32) }) }),
  }),
  z.object({ type: z.literal('session.idle'), properties: z.object({ sessionID: id }) }),
  z.object({ type: z.literal('permission.asked'), properties: PermissionSchema }),
  z.object({
    type: z.literal('permission.replied'),
    properties: z.object({ sessionID: id, requestID: id, reply: z.string().max(32) }),
  }),
  z.object({ type: z.literal('question.asked'), properties: QuestionSchema }),
  z.object({
    type: z.literal('question.replied'),
    properties: z.object({ sessionID: id, requestID: id }),
  }),
  z.object({
    type: z.literal('question.rejected'),
    properties: z.object({ sessionID: id, requestID: id }),
  }),
  z.object({
    type: z.literal('message.updated'),
    properties: z.object({
      sessionID: id,
      info: z.object({
        role: z.string().max(32),
        providerID: text.optional(),
        modelID: text.optional(),
        tokens: TokensSchema.optional(),
      }),
    }),
  }),
]);
export type ServerEvent = z.infer<typeof EventSchema>;

/** The port a pane's process serves on: `--port N` or `--port=N` in its argv, or null. */
export function portOf(argv: readonly string[]): number | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const value = a === '--port' ? argv[i + 1] : a.startsWith('--port=') ? a.slice(7) : undefined;
    if (value === undefined) continue;
    const n = Number(value);
    return /^\d{1,5}$/.test(value) && n >= 1 && n <= 65535 ? n : null;
  }
  return null;
}

export interface ServerOptions {
  /** The password the operator configured for its server (`OPENCODE_SERVER_PASSWORD`); never guessed. */
  password?: string;
  timeoutMs?: number;
}

/** The basic auth header for the password given, or none. */
export function authHeader(opts: ServerOptions): Record<string, string> {
  return opts.password ? { authorization: `Basic ${Buffer.from(`opencode:${opts.password}`).toString('base64')}` } : {};
}

function headers(opts: ServerOptions, json = false): Record<string, string> {
  return { ...(json ? { 'content-type': 'application/json' } : {}), ...authHeader(opts) };
}

/** A body read whole up to `max` bytes, or null when it is longer. */
async function boundedBody(res: Response, max = MAX_BODY_BYTES): Promise<string | null> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The most of the provider list read (every model opencode knows, with its limits). */
export const MAX_PROVIDERS_BYTES = 8 * 1024 * 1024;
/** The most models whose context window is kept. */
const MAX_MODELS = 5000;

const ProvidersSchema = z.object({
  providers: z
    .array(
      z.object({
        id: text,
        models: z.record(text, z.object({ limit: z.object({ context: z.number().nonnegative() }).optional() })),
      }),
    )
    .max(500),
});

/** The context window of every model the server knows (`<provider>/<model>` → tokens), from `GET /config/providers`. */
export async function modelWindows(port: number, opts: ServerOptions = {}): Promise<Result<Map<string, number>>> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/config/providers`, {
      headers: headers(opts),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    if (!res.ok) return { ok: false, problem: `opencode's server said ${res.status} to GET /config/providers` };
    const body = await boundedBody(res, MAX_PROVIDERS_BYTES);
    if (body === null) return { ok: false, problem: `opencode's provider list is over ${MAX_PROVIDERS_BYTES} bytes` };
    const parsed = ProvidersSchema.safeParse(JSON.parse(body));
    if (!parsed.success) return { ok: false, problem: "opencode's provider list does not parse" };
    const out = new Map<string, number>();
    for (const p of parsed.data.providers)
      for (const [model, m] of Object.entries(p.models))
        if (m.limit && out.size < MAX_MODELS) out.set(`${p.id}/${model}`, m.limit.context);
    return { ok: true, value: out };
  } catch (err) {
    return { ok: false, problem: `opencode's server on port ${port}: ${(err as Error).message.slice(0, 200)}` };
  }
}

/** Which sessions are busy now (`GET /session/status`; a session not listed is idle). */
export async function sessionStatuses(port: number, opts: ServerOptions = {}): Promise<Result<Map<string, string>>> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/session/status`, {
      headers: headers(opts),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    if (!res.ok) return { ok: false, problem: `opencode's server said ${res.status} to GET /session/status` };
    const body = await boundedBody(res);
    if (body === null) return { ok: false, problem: `opencode's session status is over ${MAX_BODY_BYTES} bytes` };
    const parsed = z.record(id, z.object({ type: z.string().max(32) })).safeParse(JSON.parse(body));
    if (!parsed.success) return { ok: false, problem: "opencode's session status does not parse" };
    return { ok: true, value: new Map(Object.entries(parsed.data).map(([k, v]) => [k, v.type])) };
  } catch (err) {
    return { ok: false, problem: `opencode's server on port ${port}: ${(err as Error).message.slice(0, 200)}` };
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The requests waiting on the server at 127.0.0.1:`port`, each parsed; one bad entry is one problem. */
export function pendingPermissions(
  port: number,
  opts: ServerOptions = {},
): Promise<Result<{ pending: Permission[]; problems: string[] }>> {
  return pendingList(port, opts, { route: 'permission', schema: PermissionSchema, one: 'permission request' });
}

/** The questions waiting on the server at 127.0.0.1:`port` (`GET /question`), each parsed; one bad entry is one problem. */
export function pendingQuestions(
  port: number,
  opts: ServerOptions = {},
): Promise<Result<{ pending: QuestionRequest[]; problems: string[] }>> {
  // A server without the question tool's routes has no questions to list.
  return pendingList(port, opts, { route: 'question', schema: QuestionSchema, one: 'question', missingIsEmpty: true });
}

/** One of the server's lists of what waits (`GET /<route>`), bounded, each entry checked by `schema`. */
async function pendingList<T>(
  port: number,
  opts: ServerOptions,
  list: { route: string; schema: z.ZodType<T>; one: string; missingIsEmpty?: boolean },
): Promise<Result<{ pending: T[]; problems: string[] }>> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/${list.route}`, {
      headers: headers(opts),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    if (res.status === 404 && list.missingIsEmpty) return { ok: true, value: { pending: [], problems: [] } };
    if (!res.ok) return { ok: false, problem: `opencode's server said ${res.status} to GET /${list.route}` };
    const body = await boundedBody(res);
    if (body === null) return { ok: false, problem: `opencode's ${list.route} list is over ${MAX_BODY_BYTES} bytes` };
    const raw: unknown = JSON.parse(body);
    if (!Array.isArray(raw)) return { ok: false, problem: `opencode's ${list.route} list is not a list` };
    const pending: T[] = [];
    const problems: string[] = [];
    for (const item of raw.slice(0, MAX_PENDING)) {
      const p = list.schema.safeParse(item);
      if (p.success) pending.push(p.data);
      else problems.push(`a ${list.one} that does not parse: ${p.error.issues[0]?.message ?? 'bad shape'}`);
    }
    if (raw.length > MAX_PENDING) problems.push(`${raw.length - MAX_PENDING} more ${list.one}s not read`);
    return { ok: true, value: { pending, problems } };
  } catch (err) {
    return { ok: false, problem: `opencode's server on port ${port}: ${(err as Error).message.slice(0, 200)}` };
  }
}

/** Answers one question request by its id: one label per question, in order; true when the server took it. */
export function replyQuestion(
  port: number,
  requestId: string,
  labels: readonly string[],
  opts: ServerOptions = {},
): Promise<Result<true>> {
  return postReply(port, `question/${requestId}/reply`, requestId, { answers: labels.map((l) => [l]) }, opts);
}

/** Answers one request by its id (`once`, `always` or `reject`); true when the server took it. */
export function replyPermission(
  port: number,
  requestId: string,
  reply: 'once' | 'always' | 'reject',
  opts: ServerOptions = {},
): Promise<Result<true>> {
  return postReply(port, `permission/${requestId}/reply`, requestId, { reply }, opts);
}

/** POSTs `payload` to the server's `route` for the request `requestId`; true when the server said `true`. */
async function postReply(
  port: number,
  route: string,
  requestId: string,
  payload: unknown,
  opts: ServerOptions,
): Promise<Result<true>> {
  if (!id.safeParse(requestId).success) return { ok: false, problem: 'not a request id opencode gives' };
  try {
    const res = await fetch(`http://127.0.0.1:${port}/${route}`, {
      method: 'POST',
      headers: headers(opts, true),
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    const body = await boundedBody(res);
    if (!res.ok || body?.trim() !== 'true')
      return { ok: false, problem: `opencode's server did not take the answer (${res.status})` };
    return { ok: true, value: true };
  } catch (err) {
    return { ok: false, problem: `opencode's server on port ${port}: ${(err as Error).message.slice(0, 200)}` };
  }
}

/**
 * Splits a server-sent event stream into the events tower reads: `data:` lines, parsed; others
 * (and events of other types) skipped, an event over MAX_EVENT_BYTES dropped whole.
 */
export class EventParser {
  private buffer = '';
  private skipping = false;

  /** Feeds a chunk; returns the events it completed. */
  push(chunk: string): ServerEvent[] {
    const out: ServerEvent[] = [];
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (!line.startsWith('data:')) continue;
      try {
        const e = EventSchema.safeParse(JSON.parse(line.slice(5)));
        if (e.success) out.push(e.data);
      } catch {
        // Not JSON: skipped like an event of another type.
      }
    }
    if (this.buffer.length > MAX_EVENT_BYTES) {
      // The rest of this line is dropped when its newline comes.
      this.buffer = '';
      this.skipping = true;
    }
    return out;
  }
}
