/**
 * No answer through the hook ever approves an input other than the one planned. Generated held
 * requests for one pane (real request files, held by real shells' pids, in tower's real held
 * folder), an answer planned for one of them (named by id, by id and hash, or by nothing), then a
 * change between the plan and its effect: none, the planned request's input rewritten under its
 * id, the planned request gone, another request held after it. A stand-in hook takes each answer
 * as the real one does (the answer file read, both files removed) and notes which request, with
 * which input, got it. Whatever was generated, every answer taken is the planned request's id with
 * the planned input's hash; a plan naming nothing while two are held is refused.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planAction, runAction } from '../../src/actions/index.js';
import { emptyRun } from '../../src/model/model.js';
import type { Run } from '../../src/model/model.js';
import { inputHash } from '../../src/store/held-input.js';
import { heldDir } from '../../src/store/held-requests.js';
import { tempDir } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, snapshotOf } from './kit.js';

let tmux: TmuxFixture;
let w: ActionWorld;
let pane: string;
let socket: string;
let dir: string;
/** Shells standing in for the hooks that hold requests: a request's id is `<epoch>-<its pid>`. */
const shells: ReturnType<typeof spawn>[] = [];
let epoch = 0;

beforeAll(async () => {
  tmux = await startTmux();
  const home = tempDir('tower-answer-prop-');
  w = actionWorld(tmux.name, home);
  pane = await tmux.newSession('agent', home, 'sh -c "echo agent; sleep 100000"');
  socket = (await tmux.client.run(['display-message', '-p', '#{socket_path}'])).trim();
  dir = heldDir(path.join(w.ctx.env.XDG_STATE_HOME!, 'tower'));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let d = dir; d !== path.dirname(w.ctx.env.XDG_STATE_HOME!); d = path.dirname(d)) fs.chmodSync(d, 0o700);
  for (let i = 0; i < 4; i++) shells.push(spawn('sh', ['-c', 'sleep 100000; true'], { stdio: 'ignore' }));
  // A hook's id names a second no earlier than its shell started.
  const started = Date.now();
  await waitFor(() => Date.now() >= started + 1100, 5000, { what: 'a second to pass' });
  epoch = Math.floor(Date.now() / 1000);
}, 30_000);

afterAll(async () => {
  for (const s of shells) if (s.exitCode === null) s.kill('SIGKILL');
  await tmux.kill();
});

function team(): Run {
  const run = emptyRun('claude-team', 'docs', null, null);
  run.members = [{ name: 'team-lead', role: 'team-lead', model: 'm', paneId: pane, state: 'alive', lead: true }];
  return run;
}

interface Req {
  id: string;
  command: string;
}

const reqFile = (id: string) => path.join(dir, `${id}.req`);
const ask = (command: string) => ({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command } });

function hold(r: Req): void {
  fs.writeFileSync(reqFile(r.id), `${pane}\t${epoch}\t60\t${socket}\n${JSON.stringify(ask(r.command))}\n`);
}

/** The part of a request's JSON the hash is of. */
interface HookInput {
  tool_name: string;
  tool_input: unknown;
}

/** What the stand-in hook took: the request answered and the hash of the input its file held then. */
interface Taken {
  id: string;
  hash: string;
}

/** Takes answers as the hook does, every few ms, until stopped; what it took. */
function standInHook(): { taken: Taken[]; stop: () => void } {
  const taken: Taken[] = [];
  const timer = setInterval(() => {
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith('.answer')) continue;
      const id = name.slice(0, -'.answer'.length);
      let json: HookInput | null = null;
      try {
        json = JSON.parse(fs.readFileSync(reqFile(id), 'utf8').split('\n')[1]!) as HookInput;
      } catch {
        json = null;
      }
      taken.push({ id, hash: json ? inputHash(json.tool_name, json.tool_input) : 'no request' });
      fs.rmSync(reqFile(id), { force: true });
      fs.rmSync(path.join(dir, name), { force: true });
    }
  }, 20);
  return { taken, stop: () => clearInterval(timer) };
}

const command = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', ';', '|', 'x', 'é', 'і'),
  minLength: 1,
  maxLength: 12,
});

describe('an answer through the hook', () => {
  it('never approves another input than the one planned, whatever changes between the plan and the effect', async () => {
    const run = await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(command, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('none', 'id', 'id+hash', 'wrong hash'),
        fc.nat({ max: 2 }),
        fc.constantFrom('nothing', 'rewrite', 'gone', 'newer'),
        command,
        async (commands, naming, pickAt, change, other) => {
          for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { force: true });
          const reqs: Req[] = commands.map((c, i) => ({ id: `${epoch}-${shells[i]!.pid!}`, command: c }));
          reqs.forEach(hold);
          const target = reqs[pickAt % reqs.length]!;
          const hash = inputHash('Bash', { command: target.command });
          const request =
            naming === 'none'
              ? undefined
              : naming === 'id'
                ? target.id
                : naming === 'id+hash'
                  ? `${target.id}:${hash}`
                  : `${target.id}:${'0'.repeat(64)}`;
          w.setSnapshot(snapshotOf(team()));
          const plan = planAction(w.env, { kind: 'answer', run: 'docs', members: ['team-lead'], choice: '1', request });
          // What may be planned: the request named, or the only one held; anything else is refused.
          if (naming === 'wrong hash' || (naming === 'none' && reqs.length > 1)) {
            expect(plan.refusal).not.toBeNull();
            return;
          }
          expect(plan.refusal).toBeNull();
          expect(plan.request.request).toBe(`${target.id}:${hash}`);
          if (change === 'rewrite') hold({ id: target.id, command: `${target.command}${other}` });
          if (change === 'gone') fs.rmSync(reqFile(target.id));
          if (change === 'newer' && reqs.length < shells.length)
            hold({ id: `${epoch}-${shells[reqs.length]!.pid!}`, command: other });
          const hook = standInHook();
          const outcome = await runAction(w.env, plan).finally(hook.stop);
          // Every answer taken is the planned request's, with the planned input.
          for (const t of hook.taken) expect(t).toEqual({ id: target.id, hash });
          if (change === 'rewrite' || change === 'gone') expect(hook.taken).toEqual([]);
          if (change === 'nothing' || change === 'newer') {
            expect(outcome.status).toBe('done');
            expect(hook.taken).toEqual([{ id: target.id, hash }]);
          } else expect(outcome.status).not.toBe('done');
        },
      ),
      { numRuns: 60 },
    );
    expect(run).toBeUndefined();
  }, 120_000);
});
