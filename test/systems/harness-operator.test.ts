/**
 * A harness under its operator: tower reads the checkpoints from the operator's API and grants and
 * requests through it, never through the `.granted` sentinel the live harness does not read.
 *
 * The operator here is a real `node:http` server on 127.0.0.1 answering as the real routes do
 * (Papercusp/papercusp-app 96a6ba72ee95b737e653c79e35563635b69940ab,
 * libs/papercusp/_retired/apps-web/app/api/_hono/harness.ts, the checkpoint routes the
 * operator-core handlers were split from):
 *   GET  /api/harness/:slug/checkpoints            → { checkpoints: [{ name, content, waitingSinceMs, granted }] },
 *                                                     404 { error: 'unknown project' }
 *   POST /api/harness/:slug/checkpoint/:name/request → { ok: true, requested }, 409 { error: 'checkpoint already pending', path }
 *   POST /api/harness/:slug/checkpoint/:name/grant   → { ok: true, granted, next }, 404 { error: 'no such checkpoint' }
 * and the Postgres row's `consumed` (libs/papercusp/_retired/orchestrator-run-loop/src/checkpoints-pg.ts):
 * a consumed row is history, not a gate.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import type { Run, Snapshot } from '../../src/model/model.js';
import { buildSnapshot } from '../../src/store/snapshot.js';
import { forgetOperatorAnswers, forgetProjectRoots } from '../../src/systems/harness/operator.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from '../actions/kit.js';
import { actionWorld } from '../actions/kit.js';

interface Row {
  content: string;
  waitingSinceMs: number;
  granted: boolean;
  consumed?: boolean;
}

type Mode = 'real' | 'garbage' | 'silent' | 'ignores-grant' | 'fails-grant' | 'slow-grant' | 'slow-grant-later';

interface FakeOperator {
  base: string;
  rows: Map<string, Row>;
  requests: string[];
  mode: Mode;
  /** Extra raw entries appended to the list answer. */
  extra: unknown[];
  timers: NodeJS.Timeout[];
  close(): Promise<void>;
}

const SLUG = 'shop';

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function startOperator(): Promise<FakeOperator> {
  const op: FakeOperator = {
    base: '',
    rows: new Map(),
    requests: [],
    mode: 'real',
    extra: [],
    timers: [],
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      op.requests.push(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
      if (op.mode === 'silent') return; // never answers: tower's timeout must end it
      const m = /^\/api\/harness\/([^/]+)\/(checkpoints|checkpoint\/([^/]+)\/(grant|request))$/.exec(req.url ?? '');
      if (!m) return json(res, 404, { error: 'not found' });
      if (decodeURIComponent(m[1] ?? '') !== SLUG) return json(res, 404, { error: 'unknown project' });
      if (m[2] === 'checkpoints' && req.method === 'GET') {
        if (op.mode === 'garbage') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('<html>operator restarting</html>');
        }
        const list = [...op.rows]
          .map(([name, r]) => ({ name, ...r }))
          .sort((a, b) => a.waitingSinceMs - b.waitingSinceMs);
        return json(res, 200, { checkpoints: [...list, ...op.extra] });
      }
      const name = (m[3] ?? '').replace(/[^A-Za-z0-9_.-]/g, '');
      if (m[4] === 'request' && req.method === 'POST') {
        if (op.rows.has(name))
          return json(res, 409, { error: 'checkpoint already pending', path: `/x/.papercusp/checkpoint-${name}.md` });
        const message = (JSON.parse(body || '{}') as { message?: string }).message ?? '';
        op.rows.set(name, {
          content: `# Checkpoint: ${name} (manual request)\n\n${message}\n`,
          waitingSinceMs: Date.now(),
          granted: false,
        });
        return json(res, 200, { ok: true, requested: name });
      }
      if (m[4] === 'grant' && req.method === 'POST') {
        if (op.mode === 'fails-grant') return json(res, 500, { error: 'pg: connection refused' });
        const row = op.rows.get(name);
        if (!row) return json(res, 404, { error: 'no such checkpoint' });
        const answer = () =>
          json(res, 200, { ok: true, granted: name, next: 'Re-run the harness to consume the grant.' });
        // Lands at once but answers past tower's 2 s; or lands only when it answers, past them.
        if (op.mode === 'slow-grant') row.granted = true;
        if (op.mode === 'slow-grant' || op.mode === 'slow-grant-later') {
          const late = setTimeout(() => {
            if (op.mode === 'slow-grant-later') row.granted = true;
            if (!res.destroyed) answer();
          }, 2600);
          op.timers.push(late);
          return;
        }
        if (op.mode !== 'ignores-grant') row.granted = true;
        return answer();
      }
      return json(res, 404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  op.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  op.close = () =>
    new Promise<void>((resolve) => {
      for (const t of op.timers) clearTimeout(t);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return op;
}

let w: ActionWorld;
let root: string;
let stateDir: string;
let op: FakeOperator | null = null;

beforeEach(() => {
  forgetOperatorAnswers();
  forgetProjectRoots();
  w = actionWorld(uniqueSocketName(), tempDir('tower-home-'));
  const parent = tempDir('tower-projects-');
  root = path.join(parent, SLUG);
  stateDir = path.join(root, '.papercusp');
  fs.mkdirSync(stateDir, { recursive: true });
  w.ctx.roots = [root];
  w.ctx.discover = false;
  for (const k of ['OPERATOR_BASE', 'PAPERCUSP_OPERATOR_BASE']) delete w.ctx.env[k];
});

afterEach(async () => {
  await op?.close();
  op = null;
  forgetOperatorAnswers();
});

async function snapshot(): Promise<Snapshot> {
  const s = await buildSnapshot(w.ctx);
  w.setSnapshot(s);
  return s;
}

function shop(s: Snapshot): Run {
  const run = s.runs.find((r) => r.system === 'harness');
  if (!run) throw new Error(`no harness run in ${JSON.stringify(s.runs.map((r) => r.id))}`);
  return run;
}

function sentinel(name: string): string {
  return path.join(stateDir, `checkpoint-${name}.md.granted`);
}

async function underOperator(mode: Mode = 'real'): Promise<FakeOperator> {
  op = await startOperator();
  op.mode = mode;
  w.ctx.env.PAPERCUSP_OPERATOR_BASE = op.base;
  return op;
}

describe('a harness under its operator', () => {
  it('reads its gates from the operator, not from the files', async () => {
    const o = await underOperator();
    o.rows.set('plan-approval', {
      content: '# Checkpoint: plan-approval (auto, triggerOn=post-planner)\n\nReview the plan.\n',
      waitingSinceMs: 1_700_000_000_000,
      granted: false,
    });
    o.rows.set('pre-done', { content: '', waitingSinceMs: 1_700_000_100_000, granted: true });
    o.rows.set('old', { content: '', waitingSinceMs: 1_600_000_000_000, granted: true, consumed: true });
    // Files the live harness never reads: a stale sentinel must not show as a gate at all.
    writeFile(path.join(stateDir, 'checkpoint-stale.md'), '# Checkpoint: stale\n');
    writeFile(sentinel('stale'), 'granted at 2026-01-01T00:00:00Z\n');

    const run = shop(await snapshot());
    expect(run.gates.map((g) => [g.id, g.state, g.grantable])).toEqual([
      ['plan-approval', 'pending', true],
      ['pre-done', 'granted', false],
    ]);
    expect(run.gates[0]?.since).toBe(new Date(1_700_000_000_000).toISOString());
    expect(run.gates[0]?.title).toContain('auto, triggerOn=post-planner');
    expect(run.gates[0]?.file).toBeNull();
    expect(run.status).toBe('waiting');
    expect(run.problems).toEqual([]);
    expect(o.requests).toEqual([`GET /api/harness/${SLUG}/checkpoints`]);
  });

  it('grants with a POST to the operator, and shows the gate granted only once the operator lists it so', async () => {
    const o = await underOperator();
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    await snapshot();
    const url = `${o.base}/api/harness/${SLUG}/checkpoint/plan-approval/grant`;

    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    expect(plan.refusal).toBeNull();
    expect(plan.effects.map((e) => [e.kind, e.text.split(' ').slice(0, 2).join(' ')])).toEqual([
      ['http', `POST ${url}`],
    ]);

    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    expect(outcome.message).toContain('the operator lists plan-approval as granted');
    expect(o.requests).toContain(`POST /api/harness/${SLUG}/checkpoint/plan-approval/grant`);
    // Confirmed by reading again after the POST.
    expect(o.requests.at(-1)).toBe(`GET /api/harness/${SLUG}/checkpoints`);
    expect(fs.existsSync(sentinel('plan-approval'))).toBe(false);
    expect(w.audit().at(-1)).toMatchObject({ action: 'grant', target: 'plan-approval', outcome: 'done' });

    const after = shop(await snapshot());
    expect(after.gates.map((g) => [g.id, g.state])).toEqual([['plan-approval', 'granted']]);

    // A second grant is a refusal, not a second POST.
    const posts = o.requests.filter((r) => r.startsWith('POST')).length;
    expect(planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }).refusal).toContain(
      'already granted',
    );
    expect(o.requests.filter((r) => r.startsWith('POST')).length).toBe(posts);
  });

  it('does not call a grant done when the operator answers OK but still lists the checkpoint pending', async () => {
    const o = await underOperator('ignores-grant');
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    await snapshot();
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }),
      {},
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toContain('still lists plan-approval as pending');
    expect(shop(await snapshot()).gates.map((g) => g.state)).toEqual(['pending']);
  });

  it('refuses, with the reason, a grant the operator answers with an error', async () => {
    const o = await underOperator('fails-grant');
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    await snapshot();
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }),
      {},
    );
    expect(outcome.status).toBe('refused');
    expect(outcome.message).toContain('HTTP 500: pg: connection refused');
    expect(shop(await snapshot()).gates.map((g) => g.state)).toEqual(['pending']);
  });

  it('prints the HTTP request under --dry-run and makes none', async () => {
    const o = await underOperator();
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    await snapshot();
    w.ctx.dryRun = true;
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    const seen = o.requests.length;
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    expect(plan.effects[0]?.text).toContain(`POST ${o.base}/api/harness/${SLUG}/checkpoint/plan-approval/grant`);
    expect(o.requests.length).toBe(seen);
  });

  it('requests a checkpoint with a POST carrying the message, confirmed by reading again', async () => {
    const o = await underOperator();
    await snapshot();
    const plan = planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'pre-done', message: 'hold on' });
    expect(plan.effects.map((e) => e.kind)).toEqual(['http']);
    expect(plan.effects[0]?.text).toContain(
      `POST ${o.base}/api/harness/${SLUG}/checkpoint/pre-done/request {"message":"hold on"}`,
    );
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    expect(fs.existsSync(path.join(stateDir, 'checkpoint-pre-done.md'))).toBe(false);
    expect(shop(await snapshot()).gates.map((g) => [g.id, g.state])).toEqual([['pre-done', 'pending']]);
    // The operator's 409 is a refusal.
    forgetOperatorAnswers();
    const again = await runAction(
      w.env,
      planAction(w.env, { kind: 'request', run: 'harness:shop', name: 'pre-done' }),
      {},
    );
    expect(again.status).toBe('refused');
    expect(again.message).toContain('already pending');
  });

  it('each bad entry of an answer is a problem of its own; the good ones are gates', async () => {
    const o = await underOperator();
    o.rows.set('good', { content: '\u001b[31mred\u001b[0m text', waitingSinceMs: 1, granted: false });
    o.extra = [{ name: '../../etc', granted: true, content: '' }, { name: 'no-granted' }, 'just a string'];
    const run = shop(await snapshot());
    expect(run.gates.map((g) => g.id)).toEqual(['good']);
    expect(run.gates[0]?.body).not.toContain('\u001b');
    expect(run.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('checkpoints[1] is not a checkpoint (name'),
      expect.stringContaining('checkpoints[2] is not a checkpoint (granted'),
      expect.stringContaining('checkpoints[3] is not a checkpoint'),
    ]);
  });
});

describe('an operator that does not answer properly', () => {
  async function expectNoClaim(reason: RegExp): Promise<void> {
    writeFile(path.join(stateDir, 'checkpoint-plan-approval.md'), '# Checkpoint: plan-approval\n');
    writeFile(sentinel('plan-approval'), 'granted at 2026-01-01T00:00:00Z\n');
    const run = shop(await snapshot());
    expect(run.problems.map((p) => p.message).join('\n')).toMatch(reason);
    expect(run.problems[0]?.message).toContain('none is shown as granted');
    // The file's gate is shown, unconfirmed, and never as granted.
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([['plan-approval', 'pending']]);
    expect(run.gates[0]?.title).toContain('not confirmed by the operator');
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' }),
      {},
    );
    expect(outcome.status).toBe('refused');
    expect(outcome.message).toContain("the operator's API did not answer");
    expect(w.audit().at(-1)).toMatchObject({ action: 'grant', outcome: 'refused' });
  }

  it('unreachable: a problem and a refusal, never granted', async () => {
    const o = await underOperator();
    await o.close(); // the port is closed now
    op = null;
    await expectNoClaim(/did not answer \((ECONNREFUSED|.*refused)/);
  });

  it('silent: the 2 s timeout gives a problem and a refusal', async () => {
    await underOperator('silent');
    const started = Date.now();
    await expectNoClaim(/no answer within 2 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it('garbage: an answer that is not JSON gives a problem and a refusal', async () => {
    await underOperator('garbage');
    await expectNoClaim(/not JSON/);
  });
});

describe('a standalone harness', () => {
  it('with no operator named, reads and grants through the files exactly as before', async () => {
    writeFile(path.join(stateDir, 'checkpoint-plan-approval.md'), '# Checkpoint: plan-approval\n');
    writeFile(path.join(stateDir, 'checkpoint-pre-done.md'), '# Checkpoint: pre-done\n');
    writeFile(sentinel('pre-done'), 'granted at 2026-01-01T00:00:00Z\n');
    const run = shop(await snapshot());
    expect(run.gates.map((g) => [g.id, g.state])).toEqual([
      ['plan-approval', 'pending'],
      ['pre-done', 'granted'],
    ]);
    expect(run.problems).toEqual([]);
    const plan = planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    expect(plan.effects.map((e) => e.kind)).toEqual(['create']);
    expect((await runAction(w.env, plan, {})).status).toBe('done');
    expect(fs.readFileSync(sentinel('plan-approval'), 'utf8')).toMatch(/^granted at /);
  });

  it('with an operator that does not know the project (404 unknown project), uses the files', async () => {
    const o = await underOperator();
    const other = path.join(path.dirname(root), 'elsewhere');
    fs.renameSync(root, other);
    root = other;
    stateDir = path.join(other, '.papercusp');
    w.ctx.roots = [other];
    writeFile(path.join(stateDir, 'checkpoint-plan-approval.md'), '# Checkpoint: plan-approval\n');
    const run = (await snapshot()).runs.find((r) => r.system === 'harness');
    expect(run?.gates.map((g) => [g.id, g.state])).toEqual([['plan-approval', 'pending']]);
    expect(run?.problems).toEqual([]);
    expect(o.requests).toEqual(['GET /api/harness/elsewhere/checkpoints']);
    const plan = planAction(w.env, { kind: 'grant', run: run?.id ?? '', gate: 'plan-approval' });
    expect(plan.effects.map((e) => e.kind)).toEqual(['create']);
    expect((await runAction(w.env, plan, {})).status).toBe('done');
    expect(fs.existsSync(sentinel('plan-approval'))).toBe(true);
  });
});

describe('an operator on a shared box', () => {
  it('drops an entry whose waitingSinceMs is no time, with a problem; the run and its other gates stay', async () => {
    const o = await underOperator();
    o.rows.set('plan-approval', { content: '', waitingSinceMs: 1_700_000_000_000, granted: false });
    o.extra = [{ name: 'late', content: '', waitingSinceMs: 8.64e15 + 1, granted: false }];
    writeFile(path.join(stateDir, 'escalation.md'), '# Escalation\n\nThe plan was rejected twice.\n');
    const run = shop(await snapshot());
    expect(run.status).toBe('blocked');
    expect(run.gates.map((g) => [g.kind, g.id])).toEqual([
      ['escalation', expect.any(String)],
      ['checkpoint', 'plan-approval'],
    ]);
    expect(run.problems.map((p) => p.message)).toEqual([
      expect.stringContaining('checkpoints[1] is not a checkpoint (waitingSinceMs'),
    ]);
  });

  it('after a grant POST that times out, reads the list again: granted when it says so, else not confirmed', async () => {
    const o = await underOperator('slow-grant');
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    await snapshot();
    const plan = () => planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'plan-approval' });
    const landed = await runAction(w.env, plan(), {});
    expect(landed).toMatchObject({ status: 'done' });
    expect(landed.message).toMatch(/got no answer within 2 s, but the operator now lists plan-approval as granted/);
    expect(w.audit().at(-1)).toMatchObject({ action: 'grant', outcome: 'done' });

    o.mode = 'slow-grant-later';
    o.rows.set('pre-done', { content: '', waitingSinceMs: Date.now(), granted: false });
    forgetOperatorAnswers();
    await snapshot();
    const later = await runAction(
      w.env,
      planAction(w.env, { kind: 'grant', run: 'harness:shop', gate: 'pre-done' }),
      {},
    );
    expect(later.status).toBe('failed');
    expect(later.message).toMatch(/still lists pre-done as pending: not confirmed/);
    expect(later.message).not.toMatch(/not granted/);
    expect(w.audit().at(-1)).toMatchObject({
      action: 'grant',
      outcome: 'failed',
      message: expect.stringContaining('not confirmed'),
    });
  }, 20_000);

  it('two projects with one folder name are a problem, and grants on them are refused', async () => {
    const o = await underOperator();
    o.rows.set('plan-approval', { content: '', waitingSinceMs: Date.now(), granted: false });
    const twin = path.join(tempDir('tower-projects-'), SLUG);
    fs.mkdirSync(path.join(twin, '.papercusp'), { recursive: true });
    w.ctx.roots = [root, twin];
    await snapshot();
    const s = await snapshot();
    const runs = s.runs.filter((r) => r.system === 'harness');
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.problems.map((p) => p.message)).toEqual([
        expect.stringMatching(/has the same folder name "shop": .*grants here are refused/),
      ]);
      const plan = planAction(w.env, { kind: 'grant', run: run.id, gate: 'plan-approval' });
      expect(plan.refusal).toMatch(/same folder name "shop".*refused/);
    }
    expect(o.requests.filter((r) => r.startsWith('POST'))).toEqual([]);
  });
});

describe('a project run by an operator tower was not told of', () => {
  it('is warned of when no operator answers at the default base; a standalone project asks none', async () => {
    // The orchestrator's run streams, and no checkpoint file: the operator keeps them in its database.
    writeFile(path.join(stateDir, 'logs', '1764000000-planner.jsonl'), '{"type":"start"}\n');
    writeFile(path.join(stateDir, 'logs', '1764000100-worker-2.jsonl'), '{"type":"start"}\n');
    const run = shop(await snapshot());
    expect(run.warnings).toContain(
      "it looks run by the Papercusp operator (run streams in logs/, no checkpoint files): its gates may be in the operator's database; tower cannot see them (set OPERATOR_BASE)",
    );
    expect(run.gates).toEqual([]);

    // A checkpoint file on disk: a standalone harness; no operator is asked, nothing is warned of.
    writeFile(path.join(stateDir, 'checkpoint-plan-approval.md'), '# Checkpoint: plan-approval\n');
    forgetOperatorAnswers();
    const standalone = shop(await snapshot());
    expect(standalone.warnings ?? []).toEqual([]);
    expect(standalone.problems).toEqual([]);
    expect(standalone.gates.map((g) => g.id)).toEqual(['plan-approval']);
  });
});
