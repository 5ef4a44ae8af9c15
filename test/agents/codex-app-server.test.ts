/**
 * Codex's app server read as untrusted input: the captured `thread/list` replies parse and say
 * asking / idle; a thread is tied to a process by its folder, its home and its start; a server that
 * replies garbage, refuses, says too much or says nothing gives a problem, never a throw (a real
 * WebSocket server on a unix socket in a temp CODEX_HOME).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import {
  MAX_REPLY_BYTES,
  MAX_THREADS,
  controlSocket,
  listThreads,
  parseList,
  type Thread,
} from '../../src/agents/codex/app-server.js';
import { threadActivity, threadOf } from '../../src/agents/codex/state.js';
import { codexWaitsForPermission } from '../../src/agents/codex/waits.js';
import { perTest } from '../helpers/per-test.js';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(path.join('test/fixtures/codex-0.169.0/app-server', name), 'utf8'));

const t = perTest();
let server: { ws: WebSocketServer; http: http.Server } | null = null;

async function closeServer(): Promise<void> {
  if (!server) return;
  const s = server;
  server = null;
  for (const c of s.ws.clients) c.terminate();
  await new Promise<void>((resolve) => s.ws.close(() => resolve()));
  await new Promise<void>((resolve) => s.http.close(() => resolve()));
}
afterEach(closeServer);

/** A stand-in app server on a temp home's control socket; `reply` answers each request by its method. */
async function standIn(reply: (method: string, id: number) => string | Buffer | null): Promise<string> {
  const home = t.dir('tower-codex-home-');
  fs.mkdirSync(path.dirname(controlSocket(home)), { recursive: true });
  const web = http.createServer();
  await new Promise<void>((resolve) => web.listen(controlSocket(home), resolve));
  server = { http: web, ws: new WebSocketServer({ server: web }) };
  server.ws.on('connection', (ws) =>
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { id?: number; method: string };
      if (m.id === undefined) return;
      const out = reply(m.method, m.id);
      if (out !== null) ws.send(out);
    }),
  );
  return home;
}

const ok = (id: number, result: unknown) => JSON.stringify({ id, result });

describe("Codex's thread/list", () => {
  it('reads the captured replies: waitingOnApproval is asking, idle is waiting at the box', () => {
    const asking = parseList(fixture('thread-list-asking.json'));
    const idle = parseList(fixture('thread-list-idle.json'));
    expect(asking.ok && idle.ok).toBe(true);
    if (!asking.ok || !idle.ok) return;
    expect(asking.bad).toBe(0);
    expect(threadActivity(asking.threads[0]!)).toEqual({ activity: 'waiting', cue: 'question' });
    expect(threadActivity(idle.threads[0]!)).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(threadActivity({ status: { type: 'active', activeFlags: [] } })).toEqual({
      activity: 'working',
      cue: 'interrupt-hint',
    });
    expect(threadActivity({ status: { type: 'notLoaded' } })).toBeNull();
  });

  it('leaves out a thread that does not parse, counted; a list that does not parse is a problem', () => {
    const good = (fixture('thread-list-idle.json') as { data: unknown[] }).data[0];
    const r = parseList({ data: [good, { id: 'x y', cwd: 3 }, 'junk'] });
    expect(r).toMatchObject({ ok: true, bad: 2 });
    expect(parseList({ data: 'no' })).toEqual({ ok: false, problem: 'a thread list that does not parse' });
    const many = parseList({ data: Array.from({ length: MAX_THREADS + 5 }, () => good) });
    expect(many.ok && many.threads.length).toBe(MAX_THREADS);
  });

  it("ties a thread to a process by its folder, its home's rollout and its start; the newest of them", () => {
    const home = '/h/.codex';
    const proc = { pid: 1, start: 1, startMs: 1_000_000_000_000, cwd: '/p/a', home };
    const thread = (id: string, cwd: string, createdAt: number, extra: Partial<Thread> = {}): Thread => ({
      id,
      cwd,
      path: `${home}/sessions/2026/11/27/rollout-${id}.jsonl`,
      status: { type: 'idle' },
      createdAt,
      ...extra,
    });
    const same = (p: string) => p;
    const at = proc.startMs / 1000;
    const threads = [
      thread('other-folder', '/p/b', at + 5),
      thread('before-start', '/p/a', at - 60),
      thread('older', '/p/a', at + 1),
      thread('newest', '/p/a', at + 9),
      thread('hidden', '/p/a', at + 20, { ephemeral: true }),
      thread('other-home', '/p/a', at + 30, { path: '/elsewhere/.codex/sessions/rollout-x.jsonl' }),
    ];
    expect(threadOf(proc, threads, same)?.id).toBe('newest');
    expect(threadOf({ ...proc, cwd: '/p/c' }, threads, same)).toBeNull();
  });

  it('lists the threads a server gives, asked with a bound on their number', async () => {
    let asked: unknown = null;
    const home = await standIn((method, id) => {
      if (method === 'thread/list') asked = id;
      return method === 'initialize' ? ok(id, {}) : ok(id, fixture('thread-list-idle.json'));
    });
    const r = await listThreads(home);
    expect(r).toMatchObject({ ok: true, bad: 0 });
    expect(r.ok && r.threads[0]!.status).toEqual({ type: 'idle' });
    expect(asked).toBe(2);
  });

  it('a server that replies garbage, refuses, says too much or nothing is a problem, never a throw', async () => {
    const cases: [(method: string, id: number) => string | Buffer | null, RegExp][] = [
      [(m, id) => (m === 'initialize' ? ok(id, {}) : '{not json'), /not JSON/],
      [(m, id) => (m === 'initialize' ? ok(id, {}) : JSON.stringify({ id, error: { code: -1 } })), /refused/],
      [(m, id) => (m === 'initialize' ? ok(id, {}) : ok(id, { data: 42 })), /does not parse/],
      [(m, id) => (m === 'initialize' ? ok(id, {}) : 'x'.repeat(MAX_REPLY_BYTES + 10)), /payload/i],
      [() => null, /no answer within 300 ms/],
    ];
    for (const [reply, want] of cases) {
      const home = await standIn(reply);
      const r = await listThreads(home, 300);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.problem).toMatch(want);
      await closeServer();
    }
    // No server at all: a problem too (the store says nothing of it: Codex starts its server later).
    expect(await listThreads(t.dir('tower-codex-home-'), 300)).toMatchObject({ ok: false, problem: /ENOENT/ });
  });
});

describe('the guard before typing, asking Codex', () => {
  /** The captured asking / idle list, its thread moved into `home` and `project`. */
  const listIn = (name: string, home: string, project: string): unknown => {
    const list = fixture(name) as { data: Thread[] };
    return {
      ...list,
      data: list.data.map((th) => ({
        ...th,
        cwd: project,
        path: path.join(home, 'sessions', path.basename(th.path!)),
      })),
    };
  };

  it("refuses on the app server's waitingOnApproval for the pane's thread, not on an idle one or another folder's", async () => {
    let reply = 'thread-list-asking.json';
    const project = t.dir('tower-codex-project-');
    let home = '';
    home = await standIn((method, id) => (method === 'initialize' ? ok(id, {}) : ok(id, listIn(reply, home, project))));
    const createdAt = (fixture(reply) as { data: Thread[] }).data[0]!.createdAt;
    const proc = { pid: 1, start: 1, startMs: createdAt * 1000 - 5000, cwd: project, home };
    expect(await codexWaitsForPermission({ pid: 1 }, () => proc)).toBe(
      "Codex's app server says its thread 01a21dac-9ad2-77e1-9f18-963a8e41d730 is waiting on approval",
    );
    // Another folder's Codex: that thread is not this pane's.
    const elsewhere = { ...proc, cwd: t.dir('tower-codex-project-') };
    expect(await codexWaitsForPermission({ pid: 1 }, () => elsewhere)).toBeNull();
    reply = 'thread-list-idle.json';
    expect(await codexWaitsForPermission({ pid: 1 }, () => proc)).toBeNull();
    // No Codex process in the pane, or a server that is gone: the screen decides.
    expect(await codexWaitsForPermission({ pid: 1 }, () => null)).toBeNull();
    await closeServer();
    expect(await codexWaitsForPermission({ pid: 1 }, () => proc)).toBeNull();
  });
});
