/** The action verbs and `tower watch` as an operator runs them: the real binary, real files, a real tmux server. */
import { pidAlive } from '../../src/kit/process-tree.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processTree } from '../../src/kit/process-tree.js';
import { tempDir, writeFile } from '../helpers/box.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';
import type { CliSetup } from '../actions/cli-kit.js';
import {
  buildTower,
  dotagentProject,
  fastConfig,
  harnessProject,
  sageProject,
  spawnTower,
  tower,
  watchEvents,
} from '../actions/cli-kit.js';
import type { TinaFixture } from '../actions/kit.js';
import { listing, readAudit, tinaFixture } from '../actions/kit.js';

let bin: string;
beforeAll(async () => {
  bin = await buildTower();
}, 60_000);

let tmux: TmuxFixture;
let home: string;
let projects: string;
let s: CliSetup;
let fx: TinaFixture;

async function setup(lead: 'answers' | 'silent' = 'answers'): Promise<void> {
  fx = await tinaFixture(tmux, { home, lead });
  s = {
    tower: bin,
    home,
    flags: ['--root', fx.root, ...roots(), '--claude-dir', fx.claudeDir, '-L', tmux.name, '--config', fastConfig(home)],
  };
}

function roots(): string[] {
  return ['shop', 'billing', 'wf'].flatMap((p) => ['--root', path.join(projects, p)]);
}

beforeEach(async () => {
  tmux = await startTmux();
  home = tempDir('tower-cli-home-');
  projects = tempDir('tower-cli-projects-');
  harnessProject(path.join(projects, 'shop'));
  sageProject(path.join(projects, 'billing'));
  dotagentProject(path.join(projects, 'wf'));
});
afterEach(async () => {
  await tmux.kill();
});

describe('tower checkpoint / rehydrate', () => {
  it('runs the cycle: exit 0 with the handoff written, then rehydrate clears the signal', async () => {
    await setup();
    const cp = await tower(s, ['checkpoint', 'tina:auth']);
    expect(cp.exitCode, cp.stderr).toBe(0);
    expect(cp.stdout).toContain('checkpoint complete');
    expect(cp.stderr).toContain(`Checkpoint tina:auth (lead team-lead in ${fx.panes.lead})`);
    expect(fs.existsSync(fx.handoff)).toBe(true);
    expect(fs.existsSync(fx.signal)).toBe(true);

    const re = await tower(s, ['rehydrate', 'tina']);
    expect(re.exitCode, re.stderr).toBe(0);
    expect(re.stdout).toContain('REHYDRATE COMPLETE');
    expect(fs.existsSync(fx.signal)).toBe(false);
    expect(readAudit(home).map((a) => [a.action, a.run, a.outcome])).toEqual([
      ['checkpoint', 'tina:auth', 'done'],
      ['rehydrate', 'tina:auth', 'done'],
    ]);
  });

  it('exits 3 on timeout, names the stragglers and marks the escalation', async () => {
    await setup('silent');
    const r = await tower(s, ['checkpoint', 'tina:auth', '--timeout', '1.5']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(
      'teammates still alive: worker-1, worker-2 (to force-terminate them: tower terminate tina:auth)',
    );
    expect(r.stderr).toContain('tower: timeout: no handoff within 1.5 s');
    expect(r.stderr).toContain('escalated');
    expect(fs.existsSync(path.join(fx.stateDir, 'tower-escalation.json'))).toBe(true);
    expect(readAudit(home)[0]).toMatchObject({ action: 'checkpoint', outcome: 'timeout' });
  });

  it('exits 1 saying the tmux server is not running when there is none', async () => {
    await setup();
    const other = uniqueSocketName();
    const r = await tower({ ...s, flags: [...s.flags, '-L', other] }, ['checkpoint', 'tina:auth']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `tower: refused: lead team-lead: team-lead's pane ${fx.panes.lead} is in an unknown state`,
    );
    expect(r.stderr).toContain(`(tmux server -L ${other} is not running)`);
    expect(fs.existsSync(fx.signal)).toBe(false);
  });

  it('exits 1 for a run that does not exist', async () => {
    await setup();
    const r = await tower(s, ['checkpoint', 'tina:nope']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('no run matches "tina:nope"');
  });
});

describe('tower terminate', () => {
  it("kills the phase team's teammates (the SIGTERM-ignoring one included) and leaves the leads", async () => {
    await setup();
    const stubborn = (await tmux.client.listPanes()).find((p) => p.paneId === fx.panes.worker2);
    const tree = await waitFor(() => {
      const t = processTree(stubborn?.pid ?? -1);
      return t.length >= 2 ? t : null;
    }, 5000);
    const r = await tower(s, ['terminate', 'tina:auth']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('force-terminated worker-1, worker-2');
    for (const p of tree) expect(pidAlive(p.pid)).toBe(false);
    const panes = (await tmux.client.listPanes()).map((p) => p.paneId);
    expect(panes).toEqual(expect.arrayContaining([fx.panes.lead, fx.panes.orchestrator]));
    expect(panes).not.toContain(fx.panes.worker2);
  });

  it('refuses under --readonly, and a dead pane named explicitly', async () => {
    await setup();
    const ro = await tower(s, ['terminate', 'tina:auth', '--member', 'team-lead', '--readonly']);
    expect(ro.exitCode).toBe(1);
    expect(ro.stderr).toContain('tower: refused: read-only mode');
    await tmux.client.killPane(fx.panes.worker1);
    const dead = await tower(s, ['terminate', 'tina:auth', '--member', 'worker-1']);
    expect(dead.exitCode).toBe(1);
    expect(dead.stderr).toContain(`tower: refused: nothing to terminate: worker-1 (${fx.panes.worker1}): already gone`);
    expect((await tmux.client.listPanes()).map((p) => p.paneId)).toContain(fx.panes.lead);
  });
});

describe('a member whose pane is in an unknown state', () => {
  it('is refused by every verb as the screen refuses it, before anything reaches a pane, exit 1', async () => {
    await setup();
    // tower reads a server that is not running: its members' panes are unknown. The fixture's
    // server, holding the same %N, runs on; nothing may reach it.
    const other = uniqueSocketName();
    const down = { ...s, flags: [...s.flags, '-L', other] };
    const why = (name: string, pane: string) =>
      `${name}'s pane ${pane} is in an unknown state: tower cannot tell it is alive (tmux server -L ${other} is not running)`;
    const verbs: [string[], string][] = [
      [['send', 'tina:auth', '--member', 'worker-1', 'hello from tower'], why('worker-1', fx.panes.worker1)],
      [['answer', 'tina:auth', '--member', 'worker-1', '1'], why('worker-1', fx.panes.worker1)],
      [['terminate', 'tina:auth', '--member', 'worker-1'], why('worker-1', fx.panes.worker1)],
      [['send', 'tina:auth', 'hello from tower'], why('team-lead', fx.panes.lead)],
      [['checkpoint', 'tina:auth'], why('team-lead', fx.panes.lead)],
    ];
    for (const [args, reason] of verbs) {
      const r = await tower(down, args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr, args.join(' ')).toContain('tower: refused: ');
      expect(r.stderr, args.join(' ')).toContain(reason);
    }
    expect(readAudit(home).map((a) => [a.action, a.outcome])).toEqual(verbs.map(([v]) => [v[0], 'refused']));
    expect(fs.existsSync(fx.signal)).toBe(false);
    const panes = (await tmux.client.listPanes()).map((p) => p.paneId);
    expect(panes).toContain(fx.panes.worker1);
    expect(await tmux.client.capturePane(fx.panes.worker1)).not.toContain('hello from tower');
    expect(await tmux.client.capturePane(fx.panes.lead)).not.toContain('hello from tower');
  });
});

describe('tower grant / request', () => {
  it('grants a harness checkpoint once (--json), then refuses', async () => {
    await setup();
    const granted = path.join(projects, 'shop', '.harness', 'checkpoint-plan-approval.md.granted');
    const first = await tower(s, ['grant', 'harness:shop', 'plan-approval', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({
      ok: true,
      run: 'harness:shop',
      gate: 'plan-approval',
      file: granted,
      message: expect.stringContaining('granted'),
    });
    const again = await tower(s, ['grant', 'harness:shop', 'plan-approval', '--json']);
    expect(again.exitCode).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({
      ok: false,
      gate: 'plan-approval',
      message: expect.stringContaining('already granted'),
    });
  });

  it('two operators granting at once: one grant, one refusal (harness, SAGE, dotagent)', async () => {
    await setup();
    const cases = [
      ['harness:shop', 'plan-approval'],
      ['sage', 'hitl'],
      ['dotagent', 'ARCHITECTURE'],
    ] as const;
    const results = await Promise.all(
      cases.map(([run, gate]) => Promise.all([tower(s, ['grant', run, gate]), tower(s, ['grant', run, gate])])),
    );
    results.forEach((both, i) => {
      expect(
        both.map((r) => r.exitCode).sort(),
        `${cases[i]?.join(' ')}: ${both.map((r) => r.stderr).join(' | ')}`,
      ).toEqual([0, 1]);
      expect(both.find((r) => r.exitCode === 1)?.stderr).toContain('tower: refused:');
    });
    expect(
      fs.readFileSync(path.join(projects, 'shop', '.harness', 'checkpoint-plan-approval.md.granted'), 'utf8'),
    ).toMatch(/^granted at \S+Z\n$/);
    expect(fs.readFileSync(path.join(projects, 'billing', '.sage', 'state', '.resume-signal'), 'utf8')).toBe(
      'STATUS: APPROVED\n',
    );
    const phase = JSON.parse(fs.readFileSync(path.join(projects, 'wf', 'memory', 'state', 'phase.json'), 'utf8')) as {
      user_checkpoints: { phase: string }[];
      extra_key: unknown;
    };
    expect(phase.user_checkpoints.map((c) => c.phase)).toEqual(['REQUIREMENTS', 'ARCHITECTURE']);
    expect(phase.extra_key).toEqual({ kept: true });
    expect(readAudit(home)).toHaveLength(6);
  });

  it('requests a checkpoint, then refuses the same name and a bad one', async () => {
    await setup();
    const ok = await tower(s, ['request', 'harness:shop', 'pre-done', '--message', 'hold on']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(fs.readFileSync(path.join(projects, 'shop', '.harness', 'checkpoint-pre-done.md'), 'utf8')).toContain(
      'hold on',
    );
    const twice = await tower(s, ['request', 'harness:shop', 'pre-done']);
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toContain('already pending');
    const bad = await tower(s, ['request', 'harness:shop', '../../etc']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('bad checkpoint name');
  });
});

describe('--dry-run', () => {
  it('prints the exact effects of every verb and changes nothing', async () => {
    await setup();
    // The harness's checkpoint hook, where the harness keeps it: a dry run names it and runs nothing.
    const hook = path.join(projects, 'shop', '.harness', 'hooks', 'on-checkpoint-fired.sh');
    writeFile(hook, `#!/bin/sh\ntouch ${path.join(projects, 'shop', 'hook-ran')}\n`);
    fs.chmodSync(hook, 0o755);
    const before = { tina: listing(fx.root), projects: listing(projects) };
    const panesBefore = (await tmux.client.listPanes()).map((p) => p.paneId);
    // Nothing changes, so every verb can run at once.
    const [cp, term, grant, req, dot, re] = await Promise.all([
      tower(s, ['checkpoint', 'tina:auth', '--dry-run']),
      tower(s, ['terminate', 'tina:auth', '--dry-run']),
      tower(s, ['grant', 'harness:shop', 'plan-approval', '--dry-run']),
      tower(s, ['request', 'harness:shop', 'later', '--dry-run']),
      tower(s, ['grant', 'dotagent', 'ARCHITECTURE', '--dry-run']),
      tower(s, ['rehydrate', 'tina:auth', '--dry-run']),
    ]);
    const lines = cp.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^write ${fx.signal} "\\{\\\\"triggered_at\\\\": \\\\"\\S+Z\\\\", \\\\"source\\\\": \\\\"tower\\\\"\\}\\\\n"$`,
      ),
    );
    expect(lines[1]).toMatch(/^check what %\d+ shows right before \/tina:checkpoint is typed: nothing is typed unless/);
    expect(lines[2]).toBe(`tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} -l -- /tina:checkpoint`);
    expect(lines[3]).toBe(`tmux -L ${tmux.name} send-keys -t ${fx.panes.lead} Enter`);
    expect(cp.stdout).toContain(`on timeout: write ${path.join(fx.stateDir, 'tower-escalation.json')}`);
    expect(term.stdout).toContain(`tmux -L ${tmux.name} kill-pane -t ${fx.panes.worker2}`);
    expect(grant.stdout).toMatch(/^create \S+checkpoint-plan-approval\.md\.granted "granted at \S+Z\\n"$/);
    expect(req.stdout).toContain('create ');
    expect(req.stdout).toContain(
      `run ${hook} in ${path.join(projects, 'shop')} with CHECKPOINT_NAME=later TRIGGER=manual`,
    );
    expect(req.stdout).toContain('HARNESS_SLUG=shop');
    expect(fs.existsSync(path.join(projects, 'shop', 'hook-ran'))).toBe(false);
    expect(dot.stdout).toContain('append {"phase":"ARCHITECTURE","approved_at":');
    for (const r of [cp, term, grant, req, dot]) expect(r.exitCode, r.stderr).toBe(0);
    // Rehydrate without a handoff is refused even in a dry run.
    expect(re.exitCode).toBe(1);
    expect(re.stderr).toContain('tower: refused: no handoff to rehydrate from');

    expect(listing(fx.root)).toEqual(before.tina);
    expect(listing(projects)).toEqual(before.projects);
    expect((await tmux.client.listPanes()).map((p) => p.paneId)).toEqual(panesBefore);
    expect(await tmux.client.capturePane(fx.panes.lead)).not.toContain('checkpoint');
    expect(readAudit(home)).toEqual([]);
  });
});

describe('tower watch', () => {
  it('prints gate-opened when a checkpoint file appears, and exits 0 on SIGTERM', async () => {
    await setup();
    const proc = spawnTower(s, ['watch']);
    const events = watchEvents(proc);
    await waitFor(() => events().some((e) => e.event === 'run-added' && e.run === 'harness:shop'), 10_000, {
      what: 'run-added',
    });
    fs.writeFileSync(
      path.join(projects, 'shop', '.harness', 'checkpoint-db-migration.md'),
      '# Checkpoint: db-migration (manual request)\n',
    );
    const opened = await waitFor(
      () => events().find((e) => e.event === 'gate-opened' && e.gate === 'db-migration'),
      10_000,
      { what: 'gate-opened' },
    );
    expect(opened).toMatchObject({ run: 'harness:shop', kind: 'checkpoint', time: expect.any(String) });
    proc.kill('SIGTERM');
    const done = await proc;
    expect(done.exitCode).toBe(0);
  });

  it('--auto-checkpoint runs checkpoint then rehydrate when the signal appears', async () => {
    await setup();
    const proc = spawnTower(s, ['watch', '--auto-checkpoint']);
    const events = watchEvents(proc);
    await waitFor(() => events().some((e) => e.event === 'run-added' && e.run === 'tina:auth'), 10_000);
    fs.writeFileSync(
      fx.signal,
      '{"triggered_at": "2026-01-26T14:37:07Z", "context_pct": 72, "threshold": 70, "source": "statusline"}\n',
    );
    await waitFor(() => events().some((e) => e.event === 'action-finished' && e.action === 'rehydrate'), 15_000, {
      what: 'the cycle to finish',
    });
    const cycle = events()
      .filter(
        (e) => e.run === 'tina:auth' && ['gate-opened', 'action-started', 'action-finished'].includes(String(e.event)),
      )
      .map((e) => [e.event, e.action ?? e.gate, e.status ?? null]);
    expect(cycle).toEqual([
      ['gate-opened', 'context', null],
      ['action-started', 'checkpoint', null],
      ['action-finished', 'checkpoint', 'done'],
      ['action-started', 'rehydrate', null],
      ['action-finished', 'rehydrate', 'done'],
    ]);
    expect(fs.existsSync(fx.signal)).toBe(false);
    proc.kill('SIGINT');
    expect((await proc).exitCode).toBe(0);
    expect(readAudit(home).map((a) => a.action)).toEqual(['checkpoint', 'rehydrate']);
  });
});
