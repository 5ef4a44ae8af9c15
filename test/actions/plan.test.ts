/** Planning, dry runs, the audit log, and the small pure pieces the actions are made of. */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/kit/effects.js';
import { planAction, runAction } from '../../src/actions/index.js';
import { parseStat, processTree } from '../../src/kit/process-tree.js';
import { assertInsideStateDir, realpathLoose, writableStateDir } from '../../src/kit/safety.js';
import { countMarker, showsPrompt } from '../../src/kit/wait.js';
import type { Run } from '../../src/model/model.js';
import { emptyRun } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import type { ActionWorld } from './kit.js';
import { actionWorld, listing, snapshotOf } from './kit.js';

let w: ActionWorld;
let home: string;
let root: string;
let stateDir: string;
let socket: string;

/** A tina run in phase 2 whose members sit in made-up panes (planning never touches tmux). */
function tina(): Run {
  const run = emptyRun('tina', 'auth', root, stateDir);
  run.phase = { current: '2', total: 3, status: 'executing' };
  run.members = [
    {
      name: 'orchestrator',
      role: 'team-lead',
      model: '',
      paneId: '%9',
      state: 'alive',
      lead: true,
      team: 'auth-orchestration',
    },
    { name: 'team-lead', role: 'team-lead', model: '', paneId: '%1', state: 'alive', lead: true, team: 'auth-phase-2' },
    {
      name: 'worker-1',
      role: 'tina:implementer',
      model: '',
      paneId: '%2',
      state: 'alive',
      lead: false,
      team: 'auth-phase-2',
    },
    {
      name: 'worker-x',
      role: 'tina:implementer',
      model: '',
      paneId: '%3',
      state: 'alive',
      lead: false,
      team: 'auth-phase-1',
    },
    {
      name: 'helper',
      role: 'x',
      model: '',
      paneId: 'in-process',
      state: 'in-process',
      lead: false,
      team: 'auth-phase-2',
    },
  ];
  return run;
}

beforeEach(() => {
  home = tempDir('tower-home-');
  root = tempDir('tower-project-');
  stateDir = path.join(root, '.claude', 'tina');
  fs.mkdirSync(path.join(stateDir, 'phase-2'), { recursive: true });
  socket = uniqueSocketName();
  w = actionWorld(socket, home);
  w.setSnapshot(snapshotOf(tina()));
});

describe('planning', () => {
  it('lists the exact effects of a checkpoint with the configured commands and socket flags', () => {
    w.ctx.config = {
      ...w.ctx.config,
      commands: {
        ...w.ctx.config.commands,
        tina: { checkpoint: '/tina:checkpoint', clear: '/clear', rehydrate: '/tina:rehydrate' },
      },
    };
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    expect(plan.title).toBe('Checkpoint tina:auth (lead team-lead in %1)');
    expect(plan.destructive).toBe(true);
    expect(plan.effects.map((e) => e.kind)).toEqual(['write', 'wait', 'tmux', 'tmux', 'wait', 'wait', 'write']);
    expect(plan.effects[1]?.text).toMatch(/^check what %1 shows right before \/tina:checkpoint is typed: nothing/);
    expect(plan.effects[2]?.text).toBe(`tmux -L ${socket} send-keys -t %1 -l -- /tina:checkpoint`);
    expect(plan.effects[5]?.text).toContain('(worker-1 %2)');
    expect(plan.effects[6]?.text).toMatch(/^on timeout: write \S+tower-escalation\.json /);
  });

  it("types into the phase session's active pane when the lead's team file names no pane", () => {
    const run = tina();
    run.members = run.members.map((m) =>
      m.name === 'team-lead' ? { ...m, paneId: null, state: 'unknown' as const } : m,
    );
    w.setSnapshot(snapshotOf(run));
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    expect(plan.target).toBe('=tina-auth-phase-2:');
    expect(plan.title).toContain('team-lead in session tina-auth-phase-2');
  });

  it('quotes what a shell would split', () => {
    expect(shellQuote('/checkpoint')).toBe('/checkpoint');
    expect(shellQuote('%3')).toBe('%3');
    expect(shellQuote('=tina-a_b-phase-2:')).toBe('=tina-a_b-phase-2:');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    expect(shellQuote('')).toBe("''");
  });

  it('picks the working team for terminate: current phase teammates with a pane, no lead, no other phase', () => {
    const plan = planAction(w.env, { kind: 'terminate', run: 'tina:auth' });
    expect(plan.target).toBe('worker-1');
    expect(planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['helper'] }).refusal).toBe(
      'nothing to terminate: helper: has no tmux pane (runs in-process)',
    );
  });

  it('refuses actions that do not apply, and state dirs outside the project', () => {
    const harness = emptyRun('harness', 'shop', root, path.join(root, '.harness'));
    w.setSnapshot(snapshotOf(tina(), harness));
    expect(planAction(w.env, { kind: 'checkpoint', run: 'harness:shop' }).refusal).toContain(
      'applies to tina runs and Claude Code teams',
    );
    expect(planAction(w.env, { kind: 'rehydrate', run: 'harness' }).refusal).toContain('applies to tina runs');

    const outside = tempDir('tower-outside-');
    const linked = path.join(root, 'linked');
    fs.symlinkSync(outside, linked);
    const run = { ...tina(), stateDir: linked };
    w.setSnapshot(snapshotOf(run));
    expect(planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' }).refusal).toContain('outside the project');
    expect(writableStateDir({ ...run, root: null })).toEqual({ refusal: expect.stringContaining('no project root') });
  });
});

describe('running', () => {
  it('in dry-run mode reports the effects and changes nothing, not even the audit log', async () => {
    w.ctx.dryRun = true;
    const before = listing(root);
    const plan = planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' });
    const outcome = await runAction(w.env, plan, {});
    expect(outcome.status).toBe('done');
    expect(outcome.message).toContain('dry run: nothing was done');
    expect(outcome.details).toEqual(plan.effects.map((e) => e.text));
    expect(listing(root)).toEqual(before);
    expect(w.audit()).toEqual([]);
  });

  it('refuses at run time when read-only mode came on after planning', async () => {
    const plan = planAction(w.env, { kind: 'terminate', run: 'tina:auth' });
    w.ctx.readonly = true;
    expect(await runAction(w.env, plan, {})).toEqual({ status: 'refused', message: 'read-only mode' });
    expect(w.audit()).toEqual([
      expect.objectContaining({ action: 'terminate', run: 'tina:auth', outcome: 'refused', message: 'read-only mode' }),
    ]);
  });

  it('re-plans a plan that comes without its details, and strips escape sequences from what it prints', async () => {
    const run = emptyRun('harness', 'shop', root, path.join(root, '.harness'));
    run.gates = [
      { id: 'x', kind: 'checkpoint', state: 'granted', since: null, grantable: false, title: 'x', file: null },
    ];
    w.setSnapshot(snapshotOf(run));
    const bare = {
      request: { kind: 'grant' as const, run: 'harness:shop', gate: 'x' },
      run,
      title: 'Grant',
      effects: [],
      refusal: null,
      destructive: true,
    };
    expect(await runAction(w.env, bare, {})).toMatchObject({
      status: 'refused',
      message: 'gate "x" of harness:shop is already granted',
    });

    const evil = tina();
    evil.members = [
      {
        name: 'lead\u001b[31m\u0007',
        role: '',
        model: '',
        paneId: '%1',
        state: 'dead',
        lead: true,
        team: 'auth-phase-2',
      },
    ];
    w.setSnapshot(snapshotOf(evil));
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'checkpoint', run: 'tina:auth' }), {});
    expect(outcome.status).toBe('refused');
    expect(outcome.message).toBe("lead lead's pane %1 is gone");
  });

  it('reports an audit log it cannot write instead of failing silently', async () => {
    writeFile(path.join(home, 'state'), 'not a directory');
    const outcome = await runAction(
      w.env,
      planAction(w.env, { kind: 'terminate', run: 'tina:auth', members: ['nobody'] }),
      {},
    );
    expect(outcome.status).toBe('refused');
    expect(outcome.details?.[0]).toContain('could not write the audit log');
  });

  it('records progress and the outcome in the activity pane', async () => {
    const outcome = await runAction(w.env, planAction(w.env, { kind: 'checkpoint', run: 'nope' }), {});
    expect(outcome.status).toBe('refused');
    expect(w.activity.getSnapshot()).toEqual([
      expect.objectContaining({
        action: 'checkpoint',
        runId: 'nope',
        status: 'refused',
        message: expect.stringContaining('no run matches'),
      }),
    ]);
  });
});

describe('pieces', () => {
  it('keeps writes inside the state directory, symlinks resolved', () => {
    const outside = tempDir('tower-outside-');
    fs.symlinkSync(outside, path.join(stateDir, 'logs'));
    expect(() => assertInsideStateDir(stateDir, path.join(stateDir, 'logs', 'hooks', 'x.log'))).toThrow(
      /outside the state directory/,
    );
    expect(() => assertInsideStateDir(stateDir, path.join(stateDir, 'phase-2', 'x'))).not.toThrow();
    expect(() => assertInsideStateDir(stateDir, path.join(stateDir, 'new', 'deeper', 'x'))).not.toThrow();
    expect(realpathLoose(path.join(stateDir, 'logs', 'a', 'b'))).toBe(path.join(outside, 'a', 'b'));
  });

  it('reads /proc stat lines whose command holds spaces and parentheses', () => {
    const line =
      '4242 (my (odd) cmd) S 17 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1000 100 18446744073709551615';
    expect(parseStat(line)).toEqual({ pid: 4242, ppid: 17, state: 'S', start: '987654' });
    expect(parseStat('garbage')).toBeNull();
    const self = processTree(process.ppid);
    expect(self.at(-1)?.pid).toBe(process.ppid);
    expect(self.map((p) => p.pid)).toContain(process.pid);
  });

  it('sees a prompt only when it is not the echo of the command just typed', () => {
    expect(showsPrompt('❯ /checkpoint\nCHECKPOINT COMPLETE\n❯ /clear\n', '/clear')).toBe(false);
    expect(showsPrompt('\n\n❯ \n\n', '/clear')).toBe(true);
    expect(showsPrompt('────\n> \n────\n  ? for shortcuts\n', '/clear')).toBe(true);
    expect(showsPrompt('│ > Try "fix lint" │\n', '/clear')).toBe(true);
    expect(showsPrompt('working...\n', '/clear')).toBe(false);
    expect(
      countMarker(
        'CHECKPOINT COMPLETE\nsaid CHECKPOINT COMPLETE here\n  CHECKPOINT COMPLETE  \n',
        'CHECKPOINT COMPLETE',
      ),
    ).toBe(2);
  });
});
