/**
 * The harness under its operator. With the operator running, Papercusp keeps checkpoints in
 * Postgres (`harness_shared.harness_checkpoints`: `granted`, `consumed`; Papercusp/papercusp-app
 * 96a6ba7, libs/papercusp/_retired/orchestrator-run-loop/src/checkpoints-pg.ts and
 * libs/papercusp/packages/orchestrator/ARCHITECTURE.md "State lives in Postgres"): the
 * `.papercusp/checkpoint-*.md(.granted)` files are the standalone CLI's, and a `.granted` sentinel
 * written beside a live harness is never read. So when an operator is named, tower asks its API.
 *
 * The mode: tower's own environment names the operator's base URL, `PAPERCUSP_OPERATOR_BASE` (what
 * the orchestrator's hook runner reads, orchestrator/src/hooks.ts) or `OPERATOR_BASE` (what hooks
 * get). A project is under that operator when the operator knows its slug (the project dir's name,
 * as hooks.ts names it): `GET <base>/api/harness/<slug>/checkpoints` answers; an operator that
 * answers 404 `unknown project` leaves the project to its files (standalone).
 *
 * Readers are synchronous: this module keeps the last answer per (base, slug), and a reader that
 * finds it missing or older than a tick asks for a fetch through `deferUntil` (scope `polled`);
 * the store starts it, at most one at a time per project, and reads the run again when it is done.
 * Every request is bounded: a 2 s timeout, a 1 MiB body, and a zod schema at the door.
 */
import type { z as Zod } from 'zod';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import { deferUntil } from '../deferred.js';
import { CHECKPOINT_NAME } from './files.js';

/** How long one request to the operator may take. */
export const OPERATOR_TIMEOUT_MS = 2000;
/** The largest answer read from the operator; a longer one is refused. */
export const OPERATOR_MAX_BYTES = 1024 * 1024;
/** An answer younger than this is not asked again (one request per project per poll tick at most). */
export const OPERATOR_FRESH_MS = 1000;
/** The operator API's default port, where hooks.ts sends hooks when nothing names one. */
export const DEFAULT_OPERATOR_BASE = 'http://localhost:3070';
/** The largest time a Date holds (ms since the epoch). */
const MAX_DATE_MS = 8.64e15;
/** Checkpoints kept from one answer; the rest are reported. */
const MAX_CHECKPOINTS = 500;
/** A checkpoint body kept for the screen. */
const MAX_CONTENT_CHARS = 64 * 1024;

/** The operator base URL tower's environment names, normalised (no trailing slash), or null; a bad URL is a problem. */
export function operatorBaseFrom(env: NodeJS.ProcessEnv): { base: string | null; problem: string | null } {
  const raw = (env.PAPERCUSP_OPERATOR_BASE ?? '').trim() || (env.OPERATOR_BASE ?? '').trim();
  if (raw === '') return { base: null, problem: null };
  const name = (env.PAPERCUSP_OPERATOR_BASE ?? '').trim() ? 'PAPERCUSP_OPERATOR_BASE' : 'OPERATOR_BASE';
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    if (url.username || url.password || url.search || url.hash)
      throw new Error('has credentials, a query or a fragment');
    return { base: url.toString().replace(/\/+$/, ''), problem: null };
  } catch (err) {
    return {
      base: null,
      problem:
        `${name}="${sanitizeLine(raw).slice(0, 120)}" is not an http(s) base URL ` +
        `(${(err as Error).message}): harness checkpoints are read from files`,
    };
  }
}

/** `<base>/api/harness/<slug>/checkpoints`. */
export function checkpointsUrl(base: string, slug: string): string {
  return `${base}/api/harness/${encodeURIComponent(slug)}/checkpoints`;
}

/** `<base>/api/harness/<slug>/checkpoint/<name>/<verb>`. */
export function checkpointActionUrl(base: string, slug: string, name: string, verb: 'grant' | 'request'): string {
  return `${base}/api/harness/${encodeURIComponent(slug)}/checkpoint/${encodeURIComponent(name)}/${verb}`;
}

/**
 * One checkpoint as `GET /api/harness/:slug/checkpoints` lists it: `{ name, content, waitingSinceMs,
 * granted }` (libs/papercusp/_retired/apps-web/app/api/_hono/harness.ts, 96a6ba7, the route the
 * operator-core handlers were split from), with the Postgres row's `consumed` when the answer carries it.
 */
function makeSchemas(z: typeof Zod) {
  return {
    checkpoint: z.object({
      name: z.string().regex(CHECKPOINT_NAME).max(200),
      content: z.string().optional(),
      // A Date holds at most 8.64e15 ms: a larger value is no time (and toISOString would throw).
      waitingSinceMs: z.number().finite().nonnegative().max(MAX_DATE_MS).optional(),
      granted: z.boolean(),
      consumed: z.boolean().optional(),
    }),
    answer: z.object({ checkpoints: z.array(z.unknown()) }),
  };
}

/**
 * The schemas, built once zod is loaded: zod is loaded only when an operator answers, so `tower
 * status` on a box without one (and the first frame) load none of it (scripts/start-paths.js).
 */
let schemas: Promise<ReturnType<typeof makeSchemas>> | null = null;
const loadSchemas = () => (schemas ??= import('zod').then(({ z }) => makeSchemas(z)));

/** A checkpoint the operator listed, sanitized. */
export interface ApiCheckpoint {
  name: string;
  content: string;
  /** When it began waiting (epoch ms), or null when the operator says 0 or nothing. */
  waitingSinceMs: number | null;
  granted: boolean;
}

/** What one read of the operator gave. */
export type OperatorRead =
  | { kind: 'ok'; url: string; checkpoints: ApiCheckpoint[]; problems: string[] }
  | { kind: 'unknown-project'; url: string }
  | { kind: 'error'; url: string; message: string };

/**
 * A request's answer: its status and body text (capped), or why there is none (`timedOut`: no
 * answer in time, so a POST may still have landed).
 */
export type HttpAnswer = { ok: true; status: number; text: string } | { ok: false; message: string; timedOut?: true };

/** One bounded HTTP request: a timeout, a body cap, never a throw. */
export async function boundedRequest(
  url: string,
  init: { method: 'GET' | 'POST'; body?: string } = { method: 'GET' },
): Promise<HttpAnswer> {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: init.method,
      headers:
        init.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'error',
      signal: AbortSignal.timeout(OPERATOR_TIMEOUT_MS),
    });
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > OPERATOR_MAX_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, message: `answer of ${declared} bytes is over the ${OPERATOR_MAX_BYTES}-byte limit` };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > OPERATOR_MAX_BYTES) {
          await reader.cancel().catch(() => undefined);
          return { ok: false, message: `answer is over the ${OPERATOR_MAX_BYTES}-byte limit` };
        }
        chunks.push(value);
      }
    }
    return { ok: true, status: res.status, text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return { ok: false, message: `no answer within ${OPERATOR_TIMEOUT_MS / 1000} s`, timedOut: true };
    const why = e.cause?.code ?? e.cause?.message ?? e.message;
    return { ok: false, message: sanitizeLine(`${why}`).slice(0, 200) || `failed after ${Date.now() - started} ms` };
  }
}

/** The `error` an operator's JSON answer gives, or a short excerpt of the text. */
export function answerError(text: string): string {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && typeof (v as { error?: unknown }).error === 'string')
      return sanitizeLine((v as { error: string }).error).slice(0, 200);
  } catch {
    // not JSON: the text itself
  }
  const t = sanitizeLine(text).trim().slice(0, 120);
  return t === '' ? 'no body' : t;
}

/** Parses the list answer; each bad entry is a problem of its own, never the whole answer. */
export async function parseCheckpointsAnswer(
  text: string,
): Promise<{ checkpoints: ApiCheckpoint[]; problems: string[] } | { error: string }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: `the answer is not JSON (${sanitizeLine(text).slice(0, 60) || 'empty'})` };
  }
  const { answer: ApiAnswerSchema, checkpoint: ApiCheckpointSchema } = await loadSchemas();
  const top = ApiAnswerSchema.safeParse(json);
  if (!top.success) return { error: 'the answer has no `checkpoints` list' };
  const checkpoints: ApiCheckpoint[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  top.data.checkpoints.forEach((raw, i) => {
    if (i >= MAX_CHECKPOINTS) {
      if (i === MAX_CHECKPOINTS)
        problems.push(`more than ${MAX_CHECKPOINTS} checkpoints listed: the rest are not shown`);
      return;
    }
    const e = ApiCheckpointSchema.safeParse(raw);
    if (!e.success) {
      const issue = e.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'unrecognised';
      problems.push(`checkpoints[${i}] is not a checkpoint (${sanitizeLine(where).slice(0, 120)})`);
      return;
    }
    if (e.data.consumed === true) return; // consumed: history, like a `.fired` marker
    if (seen.has(e.data.name)) {
      problems.push(`checkpoints[${i}]: "${e.data.name}" is listed twice; the first is shown`);
      return;
    }
    seen.add(e.data.name);
    const content = sanitize(e.data.content ?? '');
    checkpoints.push({
      name: e.data.name,
      content: content.length > MAX_CONTENT_CHARS ? `${content.slice(0, MAX_CONTENT_CHARS)}\n…` : content,
      waitingSinceMs: e.data.waitingSinceMs && e.data.waitingSinceMs > 0 ? e.data.waitingSinceMs : null,
      granted: e.data.granted,
    });
  });
  return { checkpoints, problems };
}

/** Asks the operator for a project's checkpoints, once. */
export async function fetchCheckpoints(base: string, slug: string): Promise<OperatorRead> {
  const url = checkpointsUrl(base, slug);
  const a = await boundedRequest(url);
  if (!a.ok) return { kind: 'error', url, message: a.message };
  if (a.status === 404 && answerError(a.text) === 'unknown project') return { kind: 'unknown-project', url };
  if (a.status < 200 || a.status > 299)
    return { kind: 'error', url, message: `HTTP ${a.status}: ${answerError(a.text)}` };
  const parsed = await parseCheckpointsAnswer(a.text);
  if ('error' in parsed) return { kind: 'error', url, message: parsed.error };
  return { kind: 'ok', url, ...parsed };
}

interface Cached {
  read: OperatorRead;
  at: number;
}

const cache = new Map<string, Cached>();
const inFlight = new Map<string, Promise<OperatorRead>>();
/** Cache entries kept at most (projects come and go; the oldest answer is dropped first). */
const MAX_CACHED = 256;

const keyOf = (base: string, slug: string): string => `${base}\n${slug}`;

/** Fetches now (joining a fetch under way) and keeps the answer. */
export function refreshCheckpoints(base: string, slug: string): Promise<OperatorRead> {
  const key = keyOf(base, slug);
  const running = inFlight.get(key);
  if (running) return running;
  const p = fetchCheckpoints(base, slug).then((read) => {
    cache.delete(key);
    cache.set(key, { read, at: Date.now() });
    while (cache.size > MAX_CACHED) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
    return read;
  });
  inFlight.set(key, p);
  void p.finally(() => inFlight.delete(key));
  return p;
}

/**
 * The last answer for a project, or null when none came yet. A missing or older answer asks for a
 * fetch (started by whoever builds the snapshot, never by this read).
 */
export function cachedCheckpoints(base: string, slug: string, now: number = Date.now()): OperatorRead | null {
  const hit = cache.get(keyOf(base, slug));
  if (!hit || now - hit.at >= OPERATOR_FRESH_MS) deferUntil(() => refreshCheckpoints(base, slug), 'polled');
  return hit?.read ?? null;
}

/** The last answer without asking for another (actions deciding which way to grant). */
export function lastAnswer(base: string, slug: string): OperatorRead | null {
  return cache.get(keyOf(base, slug))?.read ?? null;
}

/** Forgets every answer (tests). */
export function forgetOperatorAnswers(): void {
  cache.clear();
}

/** How long a project root read under an operator counts as present for the slug it gives. */
const ROOT_SEEN_MS = 10 * 60_000;
/** Slugs, and roots per slug, remembered at most. */
const MAX_SLUGS = 256;
const MAX_ROOTS_PER_SLUG = 16;
/** base + slug → root → when it was last read. */
const slugRoots = new Map<string, Map<string, number>>();

/**
 * Notes that `root` was read as project `slug` of the operator at `base`, and returns another root
 * read lately under the same slug (still a folder), or null. The operator names a project by its
 * folder's name alone: `/a/shop` and `/b/shop` are one project to it, so tower cannot tell which
 * of the two its gates belong to.
 */
export function noteProjectRoot(
  base: string,
  slug: string,
  root: string,
  now: number,
  isDir: (d: string) => boolean,
): string | null {
  const key = keyOf(base, slug);
  let roots = slugRoots.get(key);
  if (!roots) {
    roots = new Map();
    slugRoots.set(key, roots);
    if (slugRoots.size > MAX_SLUGS) slugRoots.delete(slugRoots.keys().next().value!);
  }
  roots.delete(root);
  roots.set(root, now);
  if (roots.size > MAX_ROOTS_PER_SLUG) roots.delete(roots.keys().next().value!);
  return sameSlugRoot(base, slug, root, now, isDir);
}

/** Another root read lately under the same operator slug (still a folder), or null. */
export function sameSlugRoot(
  base: string,
  slug: string,
  root: string,
  now: number,
  isDir: (d: string) => boolean,
): string | null {
  for (const [other, at] of slugRoots.get(keyOf(base, slug)) ?? []) {
    if (other === root) continue;
    if (now - at <= ROOT_SEEN_MS && isDir(other)) return other;
  }
  return null;
}

/** Forgets the roots read (tests). */
export function forgetProjectRoots(): void {
  slugRoots.clear();
}
