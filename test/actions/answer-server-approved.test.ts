/**
 * An answer given through opencode's server carries what it approves, whole, into its outcome and
 * its audit line, the same lines its plan showed (as a keys answer does): the request, its whole
 * input, the question and the option. A stand-in for the server on 127.0.0.1 serving the captured
 * list; a real tmux pane as the member's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { requestOf } from '../../src/agents/opencode/requests.js';
import type { Permission } from '../../src/agents/opencode/server.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { tempDir } from '../helpers/box.js';
import { readFixture } from '../helpers/fixtures.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { actionWorld, readAuditLines, snapshotOf } from './kit.js';

let tmux: TmuxFixture;
let server: http.Server | null = null;
const configBefore = process.env.XDG_CONFIG_HOME;
beforeEach(async () => {
  tmux = await startTmux();
  // No password for its server: whatever this machine's own tower config holds is not read.
  process.env.XDG_CONFIG_HOME = tempDir('tower-config-');
});
afterEach(async () => {
  await tmux.kill();
  if (configBefore === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = configBefore;
  const s = server;
  server = null;
  if (s) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

describe("an answer through opencode's server", () => {
  it('carries the lines its plan approves into its outcome and its audit line', async () => {
    let pending = JSON.parse(readFixture('opencode-1.18.33/server/permission.json')) as Permission[];
    const replies: string[] = [];
    server = http.createServer((req, res) => {
      const reply = /^\/permission\/([^/]+)\/reply$/.exec(req.url ?? '');
      if (reply && req.method === 'POST') {
        req.resume();
        req.on('end', () => {
          replies.push(reply[1]!);
          pending = pending.filter((p) => p.id !== reply[1]);
          res.writeHead(200, { 'content-type': 'application/json' }).end('true');
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/permission' ? pending : []));
    });
    const s = server;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    const home = tempDir('tower-home-');
    const w = actionWorld(tmux.name, home);
    const pane = await tmux.newSession('agent', home);
    const asked = pending[0]!;
    const shown = requestOf(port, asked).prompt;
    const run: Run = {
      ...emptyRun('claude-team', 'opencode', home, null),
      members: [
        {
          name: 'oc',
          role: 'coder',
          model: 'm',
          paneId: pane,
          state: 'alive',
          lead: true,
          agent: 'opencode',
          activity: 'waiting',
          prompt: shown,
        },
      ],
    };
    w.setSnapshot(snapshotOf(run));

    const plan = planAction(w.env, { kind: 'answer', run: run.id, members: ['oc'], choice: '1' });
    expect(plan.refusal).toBeNull();
    expect(plan.title).toContain("through its CLI's server");
    const command = asked.metadata!.command!;
    expect(plan.approves).toEqual([
      `request ${asked.id}, tool Bash, its whole input as its CLI's server gave it:`,
      `  ${JSON.stringify({ command })}`,
      `${shown.question} → 1. Allow once`,
    ]);
    const outcome = await runAction(w.env, plan);
    expect(outcome).toMatchObject({ status: 'done', approved: plan.approves });
    expect(replies).toEqual([asked.id]);
    const audited = readAuditLines(home).filter((l) => l.outcome === 'done');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ action: 'answer', approved: plan.approves });
  });
});
