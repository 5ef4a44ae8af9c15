/**
 * The background app server every Codex on a CODEX_HOME shares, asked for its threads. 0.169.0
 * listens on `<CODEX_HOME>/app-server-control/app-server-control.sock` (a link to
 * `/tmp/codex-daemon-<uid>/<hash>`): a WebSocket of JSON-RPC, `initialize`, `initialized`, then
 * `thread/list`, whose threads carry their `cwd`, their rollout `path` and a `status` (`idle`,
 * `active` with `activeFlags` such as `waitingOnApproval`, …). Fixtures:
 * test/fixtures/codex-0.169.0/app-server/.
 *
 * The server is untrusted input like a pane: one request is bounded in time and in bytes, the reply
 * is parsed against a schema, the list is capped; a thread that does not parse is left out and
 * counted, never a crash.
 */
import path from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';

/** How long one `thread/list` (connect, initialize, list) may take. */
export const REQUEST_TIMEOUT_MS = 2000;
/** The most of one reply read: a list of 50 threads is ~100 KB. */
export const MAX_REPLY_BYTES = 1024 * 1024;
/** The threads asked for, newest first: a box runs tens of agents on one home. */
export const MAX_THREADS = 50;

const MAX_TEXT = 4096;

/** A thread's status as `thread/list` gives it; a type tower does not know is kept as such. */
const StatusSchema = z.object({
  type: z.string().max(64),
  activeFlags: z.array(z.string().max(64)).max(16).optional(),
});

/** One thread, the fields tower reads (others are ignored). */
const ThreadSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  cwd: z.string().max(MAX_TEXT),
  path: z.string().max(MAX_TEXT).nullable().optional(),
  status: StatusSchema,
  ephemeral: z.boolean().optional(),
  /** Epoch seconds. */
  createdAt: z.number().nonnegative(),
  updatedAt: z.number().nonnegative().optional(),
});
export type Thread = z.infer<typeof ThreadSchema>;

const ListSchema = z.object({ data: z.array(z.unknown()).max(1000) });

/** The control socket of a CODEX_HOME. */
export function controlSocket(codexHome: string): string {
  return path.join(codexHome, 'app-server-control', 'app-server-control.sock');
}

export type ListResult = { ok: true; threads: Thread[]; bad: number } | { ok: false; problem: string };

/** The threads of the app server of `codexHome`, or why not (no server, a timeout, a reply that does not parse). */
export function listThreads(codexHome: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<ListResult> {
  return new Promise((resolve) => {
    let done = false;
    const ws = new WebSocket(`ws+unix://${controlSocket(codexHome)}:/`, { maxPayload: MAX_REPLY_BYTES });
    const finish = (r: ListResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      // A late error after the close is not ours to report.
      ws.on('error', () => {});
      ws.terminate();
      resolve(r);
    };
    const timer = setTimeout(() => finish({ ok: false, problem: `no answer within ${timeoutMs} ms` }), timeoutMs);
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          id: 1,
          method: 'initialize',
          params: { clientInfo: { name: 'tower', title: null, version: '1' } },
        }),
      ),
    );
    ws.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return finish({ ok: false, problem: 'a binary reply' });
      let m: unknown;
      try {
        m = JSON.parse(data.toString('utf8'));
      } catch {
        return finish({ ok: false, problem: 'a reply that is not JSON' });
      }
      const reply = z.object({ id: z.number().optional(), error: z.unknown().optional() }).passthrough().safeParse(m);
      if (!reply.success) return finish({ ok: false, problem: 'a reply that is not JSON-RPC' });
      const r = reply.data;
      if (r.error !== undefined) return finish({ ok: false, problem: `request ${r.id ?? '?'} refused` });
      if (r.id === 1) {
        ws.send(JSON.stringify({ method: 'initialized' }));
        ws.send(JSON.stringify({ id: 2, method: 'thread/list', params: { limit: MAX_THREADS } }));
      } else if (r.id === 2) finish(parseList((r as { result?: unknown }).result));
    });
    ws.on('error', (err) => finish({ ok: false, problem: err.message.slice(0, 200) }));
    ws.on('close', () => finish({ ok: false, problem: 'closed before the list came' }));
  });
}

/** A `thread/list` result parsed: its threads (at most MAX_THREADS), and how many did not parse. */
export function parseList(result: unknown): ListResult {
  const list = ListSchema.safeParse(result);
  if (!list.success) return { ok: false, problem: 'a thread list that does not parse' };
  const threads: Thread[] = [];
  let bad = 0;
  for (const raw of list.data.data.slice(0, MAX_THREADS)) {
    const t = ThreadSchema.safeParse(raw);
    if (t.success) threads.push(t.data);
    else bad++;
  }
  return { ok: true, threads, bad };
}
