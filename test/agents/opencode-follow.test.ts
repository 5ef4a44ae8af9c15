/**
 * Following an opencode server, against a stand-in on 127.0.0.1 that serves what opencode 1.18.33
 * served (test/fixtures/opencode-1.18.33/server/): the state, the request waiting and the context
 * read from its events and lists; the stream reconnected when it ends; an answer sent only for the
 * request shown, with the input shown.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpencodeFollow } from '../../src/agents/opencode/follow.js';
import { answerBySignature, questionOf, requestOf } from '../../src/agents/opencode/requests.js';
import { opencodeWaitsForPermission } from '../../src/agents/opencode/waits.js';
import type { Permission, QuestionRequest } from '../../src/agents/opencode/server.js';
import { readFixture } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/wait-for.js';

const F = (name: string) => readFixture(`opencode-1.18.33/server/${name}`);
const PENDING = JSON.parse(F('permission.json')) as Permission[];
const QUESTIONS = JSON.parse(F('question.json')) as QuestionRequest[];
/** No password given to tower (whatever this machine's own config holds). */
const NONE = () => ({ password: null, problem: null });

interface StandIn {
  port: number;
  pending: Permission[];
  questions: QuestionRequest[];
  replies: string[];
  /** The authorization headers the stand-in was sent, in order. */
  auths: string[];
  /** Ends every open event stream. */
  endStreams(): void;
  send(event: unknown): void;
  close(): Promise<void>;
}

const open: StandIn[] = [];
const follows: OpencodeFollow[] = [];

/** A stand-in for opencode's server; with `password`, asking basic auth as `OPENCODE_SERVER_PASSWORD` makes it. */
async function standIn(opts: { password?: string; questions?: QuestionRequest[] } = {}): Promise<StandIn> {
  const streams = new Set<http.ServerResponse>();
  const s: Partial<StandIn> = { pending: [...PENDING], questions: opts.questions ?? [], replies: [], auths: [] };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    s.auths!.push(req.headers.authorization ?? '');
    const wanted = `Basic ${Buffer.from(`opencode:${opts.password}`).toString('base64')}`;
    if (opts.password && req.headers.authorization !== wanted) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="Secure Area"' }).end();
      return;
    }
    if (url === '/event') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"server.connected","properties":{}}\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url === '/permission') return json(s.pending);
    if (url === '/question') return json(s.questions);
    if (url === '/session/status') return json(s.pending!.length > 0 ? JSON.parse(F('session-status.json')) : {});
    if (url === '/config/providers')
      return json({ providers: [{ id: 'standin', models: { 'standin-model': { limit: { context: 100000 } } } }] });
    const reply = /^\/(?:permission|question)\/([^/]+)\/reply$/.exec(url);
    if (reply && req.method === 'POST') {
      let body = '';
      req.on('data', (b: Buffer) => (body += b.toString()));
      req.on('end', () => {
        s.replies!.push(`${reply[1]} ${body}`);
        s.pending = s.pending!.filter((p) => p.id !== reply[1]);
        s.questions = s.questions!.filter((q) => q.id !== reply[1]);
        json(true);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(s, {
    port: (server.address() as AddressInfo).port,
    endStreams: () => {
      for (const r of streams) r.end();
    },
    send: (e: unknown) => {
      for (const r of streams) r.write(`data: ${JSON.stringify(e)}\n\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  open.push(s as StandIn);
  return s as StandIn;
}

afterEach(async () => {
  for (const f of follows.splice(0)) f.close();
  for (const s of open.splice(0)) await s.close();
});

describe("opencode's server followed", () => {
  it('reads the request waiting as the prompt, then the turn and the context from its events', async () => {
    const s = await standIn();
    const f = new OpencodeFollow(s.port, () => {});
    follows.push(f);
    expect(f.read()).toBeNull();
    await f.ready();
    const asked = f.read()!;
    expect(asked).toMatchObject({ activity: 'waiting', cue: 'question' });
    expect(asked.prompt?.subject).toEqual(['# Shell command', '$ echo hi > out-a.txt']);
    expect(asked.request).toMatchObject({
      id: PENDING[0]!.id,
      tool: 'Bash',
      input: { command: 'echo hi > out-a.txt' },
    });
    // The events: the request replied, the message's tokens, the session idle.
    for (const line of F('events.sse')
      .split('\n')
      .filter((l) => l.startsWith('data:')))
      s.send(JSON.parse(line.slice(5)));
    s.send({
      type: 'permission.replied',
      properties: { sessionID: PENDING[0]!.sessionID, requestID: PENDING[0]!.id, reply: 'once' },
    });
    s.send({ type: 'session.idle', properties: { sessionID: PENDING[0]!.sessionID } });
    const idle = await waitFor(() => (f.read()?.cue === 'prompt' ? f.read() : null), 10_000, { what: 'idle' });
    expect(idle!.prompt).toBeNull();
    expect(idle!.usage).toMatchObject({ window: 100_000 });
    expect(idle!.usage!.used).toBeGreaterThan(0);
  });

  it('reconnects when the stream ends, and reads the lists again: what was missed meanwhile', async () => {
    const s = await standIn();
    let changes = 0;
    const f = new OpencodeFollow(s.port, () => changes++);
    follows.push(f);
    await f.ready();
    expect(f.read()?.cue).toBe('question');
    // Answered while tower was away: the list read on reconnecting says so.
    s.pending = [];
    s.endStreams();
    await waitFor(() => f.read()?.cue === 'prompt', 10_000, { what: 'the reconnect' });
    expect(changes).toBeGreaterThanOrEqual(2);
  });

  it('answers only the request shown, with the input shown', async () => {
    const s = await standIn();
    const shown = requestOf(s.port, PENDING[0]!).prompt.signature;
    // The same id now asking about another command: nothing is sent.
    s.pending = [{ ...PENDING[0]!, metadata: { command: 'rm -rf /' } }];
    expect(await answerBySignature(s.port, shown, '1')).toMatchObject({ ok: false });
    expect(s.replies).toEqual([]);
    s.pending = [...PENDING];
    expect(await answerBySignature(s.port, shown, 'n')).toEqual({ ok: true, label: 'Reject' });
    expect(s.replies).toEqual([`${PENDING[0]!.id} {"reply":"reject"}`]);
    // Gone from the list: nothing more is sent.
    expect(await answerBySignature(s.port, shown, '1')).toMatchObject({ ok: false });
    expect(s.replies.length).toBe(1);
  });

  it("shows its question tool's question with the options numbered, and answers it by id with the option's label", async () => {
    const s = await standIn({ questions: QUESTIONS });
    s.pending = [];
    const f = new OpencodeFollow(s.port, () => {}, {}, Date.now, NONE);
    follows.push(f);
    await f.ready();
    const asked = f.read()!;
    expect(asked).toMatchObject({ activity: 'waiting', cue: 'question' });
    expect(asked.prompt).toMatchObject({
      question: 'Which colour should the button be?',
      subject: ['1. Red (A warm red)', '2. Blue (A cool blue)'],
      options: [
        { key: '1', label: 'Red' },
        { key: '2', label: 'Blue' },
      ],
      request: { id: QUESTIONS[0]!.id, tool: 'question' },
    });
    // A rule judges only a tool's input (an object): a question's is a list, never judged.
    expect(Array.isArray(JSON.parse(asked.prompt!.request!.whole))).toBe(true);
    const shown = asked.prompt!.signature;
    expect(await answerBySignature(s.port, shown, 'y')).toMatchObject({ ok: false });
    expect(await answerBySignature(s.port, shown, '3')).toMatchObject({ ok: false });
    expect(s.replies).toEqual([]);
    expect(await answerBySignature(s.port, shown, '2')).toEqual({ ok: true, label: 'Blue' });
    expect(s.replies).toEqual([`${QUESTIONS[0]!.id} {"answers":[["Blue"]]}`]);
    // The events as the real server sent them: asked, replied.
    const events = readFixture('opencode-1.18.33/server/question-events.sse')
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as { type: string });
    for (const e of events.slice(0, 3)) s.send(e);
    await waitFor(() => f.read()?.prompt?.request?.tool === 'question', 10_000, { what: 'the asked event' });
    for (const e of events.slice(3)) s.send(e);
    await waitFor(() => f.read()?.cue === 'prompt', 10_000, { what: 'replied, rejected, idle' });
  });

  it('a question asking several things, or one option named like the permission dialog, has no option tower takes', () => {
    const two = { ...QUESTIONS[0]!, questions: [QUESTIONS[0]!.questions[0]!, QUESTIONS[0]!.questions[0]!] };
    expect(questionOf(1, two).prompt).toMatchObject({ question: '2 questions (answer them in its pane)', options: [] });
    const named = {
      ...QUESTIONS[0]!,
      questions: [{ ...QUESTIONS[0]!.questions[0]!, options: [{ label: 'Reject', description: 'no' }] }],
    };
    expect(questionOf(1, named).prompt.options).toEqual([]);
    const many = { ...QUESTIONS[0]!, questions: [{ ...QUESTIONS[0]!.questions[0]!, multiple: true }] };
    expect(questionOf(1, many).prompt.options).toEqual([]);
  });

  it('a server asking a password is not followed without one: a problem says so, naming no password', async () => {
    const s = await standIn({ password: 'the-secret-9' });
    let changes = 0;
    const bare = new OpencodeFollow(s.port, () => changes++, {}, Date.now, NONE);
    follows.push(bare);
    await bare.ready();
    expect(bare.read()).toBeNull();
    expect(bare.problem()).toContain('asks for a password (OPENCODE_SERVER_PASSWORD)');
    expect(bare.problem()).toContain('opencode-password');
    expect(changes).toBe(1);
    const wrong = new OpencodeFollow(
      s.port,
      () => {},
      {},
      Date.now,
      () => ({ password: 'guess' }),
    );
    follows.push(wrong);
    await wrong.ready();
    expect(wrong.problem()).toContain('refused the password tower was given');
    expect(wrong.problem()).not.toContain('guess');
    const given = new OpencodeFollow(
      s.port,
      () => {},
      {},
      Date.now,
      () => ({ password: 'the-secret-9' }),
    );
    follows.push(given);
    await given.ready();
    expect(given.problem()).toBeNull();
    expect(given.read()).toMatchObject({ activity: 'waiting', cue: 'question' });
    // An answer goes with the password; without it, nothing is taken.
    const shown = requestOf(s.port, PENDING[0]!).prompt.signature;
    expect(await answerBySignature(s.port, shown, '1')).toMatchObject({ ok: false });
    expect(await answerBySignature(s.port, shown, '1', { password: 'the-secret-9' })).toEqual({
      ok: true,
      label: 'Allow once',
    });
    expect(s.replies).toEqual([`${PENDING[0]!.id} {"reply":"once"}`]);
  });
});

describe('the guard before typing, asking opencode', () => {
  it('refuses on a permission or a question its server holds, naming it; not when none, nor without a server', async () => {
    const s = await standIn({ questions: QUESTIONS });
    const argv = [['node', '/x/bin/opencode', '--port', String(s.port)]];
    const p = PENDING[0]!;
    expect(await opencodeWaitsForPermission({ argv }, NONE)).toBe(
      `opencode's server on port ${s.port} holds a permission request from it (${p.id}, ${p.permission}, session ${p.sessionID})`,
    );
    s.pending = [];
    const q = QUESTIONS[0]!;
    expect(await opencodeWaitsForPermission({ argv }, NONE)).toBe(
      `opencode's server on port ${s.port} holds a question from it (${q.id}, session ${q.sessionID}: ${q.questions[0]!.question})`,
    );
    s.questions = [];
    expect(await opencodeWaitsForPermission({ argv }, NONE)).toBeNull();
    expect(await opencodeWaitsForPermission({ argv: [['opencode']] }, NONE)).toBeNull();
    await s.close();
    expect(await opencodeWaitsForPermission({ argv }, NONE)).toBeNull();
  });
});
