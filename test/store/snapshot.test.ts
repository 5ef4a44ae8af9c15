import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyRun } from '../../src/model/model.js';
import { SnapshotSchema } from '../../src/model/schema.js';
import type { Gate, Run, Snapshot } from '../../src/model/model.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { assembleRuns } from '../../src/store/assemble.js';
import type { SourceRead } from '../../src/store/readers.js';
import { defaultReaders, withRunReader } from '../../src/store/readers.js';
import { buildSnapshot, readSnapshot, resolveRun } from '../../src/store/snapshot.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { buildBox, tempDir, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { testContext } from '../helpers/context.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { joinedNow } from '../helpers/fixtures.js';

const NOW = Date.parse('2026-01-26T15:00:00Z');
const settings = { ...DEFAULT_READ_SETTINGS, now: NOW };

let box: Box;
beforeAll(() => {
  box = buildBox();
});
afterAll(() => box.remove());

function ids(s: Snapshot): string[] {
  return s.runs.map((r) => r.id);
}

describe('readSnapshot over the box', () => {
  it('reads every system, merges tina teams, and validates against the contract', () => {
    const s = readSnapshot({ roots: box.roots, claudeDir: box.claudeDir, panes: [], settings, home: box.dir });
    expect(SnapshotSchema.safeParse(s).success).toBe(true);
    expect(new Set(s.runs.map((r) => r.system))).toEqual(
      new Set(['tina', 'claude-team', 'harness', 'sage', 'dotagent']),
    );
    // The teams tina merged are not runs of their own; the lone team is.
    expect(ids(s)).toContain('claude-team:docs-sweep');
    expect(ids(s).filter((id) => id.startsWith('claude-team:'))).toEqual(['claude-team:docs-sweep']);
    const tina = s.runs.find((r) => r.id === 'tina:auth-flow');
    expect(tina?.members.map((m) => m.team)).toContain('auth-flow-phase-2');
    // One root, two systems, two runs.
    expect(
      s.runs
        .filter((r) => r.root === box.project('mixed'))
        .map((r) => r.system)
        .sort(),
    ).toEqual(['dotagent', 'harness']);
    expect(s.problems).toEqual([]);
  });

  it('sorts escalations, then pending gates, then by status; ties by id', () => {
    const s = readSnapshot({ roots: box.roots, claudeDir: box.claudeDir, panes: [], settings, home: box.dir });
    expect(ids(s)).toEqual([
      'tina:legacy-search', // escalation
      'dotagent:wf-20260116-auth', // approval pending
      'harness:sheets-clone', // checkpoint pending
      'sage:EPIC-002', // human gate pending
      'tina:auth-flow', // context gate pending
      'claude-team:docs-sweep', // running
      'dotagent:wf-mixed', // running
      'harness:mixed', // idle
    ]);
  });

  it('finds the registry root without flags, and nothing that no one points at', () => {
    const s = readSnapshot({ roots: [], claudeDir: box.claudeDir, panes: [], settings, home: box.dir });
    expect(ids(s).sort()).toEqual(['claude-team:docs-sweep', 'tina:auth-flow']);
  });

  it('reports a missing --root and a root with no state dir as snapshot problems', () => {
    const s = readSnapshot({
      roots: [path.join(box.dir, 'gone'), box.project('docs-site')],
      claudeDir: box.claudeDir,
      panes: [],
      settings,
      home: box.dir,
    });
    expect(s.problems.map((p) => p.file)).toEqual([path.join(box.dir, 'gone'), box.project('docs-site')]);
  });

  it('turns a throwing reader into a problem on a run of unknown status, and keeps the rest', () => {
    const readers = withRunReader(defaultReaders, 'sage', () => {
      throw new Error('boom in sage');
    });
    const s = readSnapshot({ roots: box.roots, claudeDir: box.claudeDir, panes: [], settings, home: box.dir, readers });
    const sage = s.runs.find((r) => r.system === 'sage');
    expect(sage).toMatchObject({ id: 'sage:epic-app', status: 'unknown', root: box.project('epic-app') });
    expect(sage?.problems[0]?.message).toContain('boom in sage');
    expect(s.runs).toHaveLength(8);
    expect(SnapshotSchema.safeParse(s).success).toBe(true);
  });

  it('turns a throwing team reader into one snapshot problem', () => {
    const readers = {
      ...defaultReaders,
      readTeams: () => {
        throw new TypeError('teams exploded');
      },
    };
    const s = readSnapshot({
      roots: [box.project('sheets-clone')],
      claudeDir: box.claudeDir,
      panes: [],
      settings,
      home: box.dir,
      readers,
    });
    expect(ids(s)).toContain('harness:sheets-clone');
    expect(s.problems).toHaveLength(1);
    expect(s.problems[0]?.message).toContain('teams exploded');
  });
});

describe('ids and order', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('suffixes colliding ids #2, #3 in root order', () => {
    const base = tempDir();
    dirs.push(base);
    const roots = ['c', 'a', 'b'].map((p) => path.join(base, p, 'app'));
    for (const r of roots) writeFile(path.join(r, '.harness', 'config.json'), {});
    const s = readSnapshot({ roots, claudeDir: path.join(base, 'no-claude'), panes: [], settings, home: base });
    const byRoot = Object.fromEntries(s.runs.map((r) => [r.root, r.id]));
    expect(byRoot).toEqual({
      [path.join(base, 'a', 'app')]: 'harness:app',
      [path.join(base, 'b', 'app')]: 'harness:app#2',
      [path.join(base, 'c', 'app')]: 'harness:app#3',
    });
  });

  it('orders by urgency: escalation, gates, blocked, running, waiting, idle, unknown, complete', () => {
    const gate = (kind: Gate['kind'], state: Gate['state'] = 'pending'): Gate => ({
      id: kind,
      kind,
      state,
      since: null,
      grantable: false,
      title: '',
      file: null,
    });
    const mk = (name: string, status: Run['status'], gates: Gate[] = []): Run => ({
      ...emptyRun('harness', name, null, null),
      status,
      gates,
    });
    const runs = [
      mk('complete', 'complete'),
      mk('unknown', 'unknown'),
      mk('idle', 'idle'),
      mk('waiting', 'waiting'),
      mk('running', 'running'),
      mk('blocked', 'blocked'),
      mk('z-granted-only', 'complete', [gate('checkpoint', 'granted')]),
      mk('gate-b', 'running', [gate('approval')]),
      mk('gate-a', 'complete', [gate('context')]),
      mk('esc', 'idle', [gate('escalation'), gate('checkpoint')]),
    ];
    const reads = runs.map((run, i): [string, SourceRead] => [
      `k${i}`,
      { source: { system: 'harness', root: `/p/${i}`, stateDir: `/p/${i}/.harness` }, run, teamNames: [] },
    ]);
    const sorted = assembleRuns(reads, [], {
      teamRun: () => {
        throw new Error('no teams here');
      },
      live: (r) => r,
    });
    expect(sorted.map((r) => r.name)).toEqual([
      'esc',
      'gate-a',
      'gate-b',
      'blocked',
      'running',
      'waiting',
      'idle',
      'unknown',
      'complete',
      'z-granted-only',
    ]);
  });
});

describe('resolveRun', () => {
  const s = readSnapshot({ roots: [], claudeDir: '/nonexistent', panes: [], settings });
  const snap: Snapshot = {
    ...s,
    runs: ['tina:auth-flow', 'tina:auth-flow-v2', 'harness:sheets', 'harness:sheets#2', 'sage:EPIC-002'].map((id) => {
      const [system, name] = id.split(':') as [Run['system'], string];
      return { ...emptyRun(system, name.replace(/#\d$/, ''), null, null), id };
    }),
  };

  it('takes the exact id first, then a unique prefix of an id or a name', () => {
    expect(resolveRun(snap, 'tina:auth-flow')).toMatchObject({ run: { id: 'tina:auth-flow' } });
    expect(resolveRun(snap, 'sage')).toMatchObject({ run: { id: 'sage:EPIC-002' } });
    expect(resolveRun(snap, 'EPIC')).toMatchObject({ run: { id: 'sage:EPIC-002' } });
    expect(resolveRun(snap, 'auth-flow-')).toMatchObject({ run: { id: 'tina:auth-flow-v2' } });
    expect(resolveRun(snap, 'auth-flow')).toMatchObject({ run: { id: 'tina:auth-flow' } });
  });

  it('refuses an ambiguous prefix, naming every match', () => {
    const r = resolveRun(snap, 'harness:sh');
    expect('error' in r && r.error).toMatch(/ambiguous.*harness:sheets, harness:sheets#2/);
    const t = resolveRun(snap, 'tina');
    expect('error' in t && t.error).toContain('tina:auth-flow-v2');
  });

  it('says so when nothing matches', () => {
    const r = resolveRun(snap, 'dotagent');
    expect('error' in r && r.error).toMatch(/no run matches "dotagent"/);
    expect('error' in resolveRun(snap, '  ')).toBe(true);
  });
});

describe('buildSnapshot with a real tmux server', () => {
  let tmux: TmuxFixture;
  beforeAll(async () => {
    tmux = await startTmux();
  });
  afterAll(async () => {
    await tmux.kill();
  });

  it('discovers roots from pane cwds (walking up) and gives the tina phase lead its session pane', async () => {
    await tmux.newSession('work', path.join(box.project('epic-app')));
    await tmux.client.run([
      'split-window',
      '-d',
      '-t',
      'work',
      '-c',
      path.join(box.project('mixed'), 'memory'),
      'sleep 100000',
    ]);
    const lead = await tmux.newSession('tina-auth-flow-phase-2', path.join(box.project('auth-flow'), 'src'));
    joinedNow(box.claudeDir);
    const ctx = testContext({ claudeDir: box.claudeDir, socketName: tmux.name, home: box.dir });
    const s = await buildSnapshot(ctx, { now: NOW });
    expect(ids(s).sort()).toEqual([
      'claude-team:docs-sweep',
      'dotagent:wf-mixed',
      'harness:mixed',
      'sage:EPIC-002',
      'tina:auth-flow',
    ]);
    const members = s.runs.find((r) => r.id === 'tina:auth-flow')?.members ?? [];
    const phaseLead = members.find((m) => m.team === 'auth-flow-phase-2' && m.lead);
    expect(phaseLead).toMatchObject({ paneId: lead, state: 'alive' });
    // %9001 and %9002 are named by the team files but do not exist on this server.
    expect(members.find((m) => m.paneId === '%9002')?.state).toBe('dead');
    expect(members.find((m) => m.name === 'spec-reviewer')?.state).toBe('in-process');
    expect(s.problems).toEqual([]);
  });

  it('with no server: members with panes are unknown, and the one problem says the server is not running', async () => {
    const socket = uniqueSocketName();
    const ctx = testContext({
      claudeDir: box.claudeDir,
      roots: box.roots,
      socketName: socket,
      home: box.dir,
    });
    const s = await buildSnapshot(ctx, { now: NOW });
    const states = s.runs.flatMap((r) => r.members.filter((m) => m.state !== 'in-process').map((m) => m.state));
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['unknown']));
    expect(s.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(new RegExp(`^tmux server -L ${socket} is not running`)),
    ]);
  });

  it('a tmux timeout is one snapshot problem, and liveness is unknown', async () => {
    const ctx = testContext({
      claudeDir: box.claudeDir,
      roots: [box.project('sheets-clone')],
      socketName: tmux.name,
      home: box.dir,
    });
    // A server that takes the connection and never answers: the real tmux client waits on it until
    // the timeout, however fast or loaded the machine is (a tiny timeout against a live server loses
    // the race to a quick tmux now and then). It reads and drops what the client sends, file
    // descriptors included, so the killed client leaves no pipe open behind it.
    const dir = tempDir('tower-hung-');
    const held: net.Socket[] = [];
    const hung = net.createServer((conn) => {
      held.push(conn.resume());
    });
    await new Promise<void>((resolve) => hung.listen(path.join(dir, 'tmux.sock'), resolve));
    ctx.tmux = new TmuxClient({ path: path.join(dir, 'tmux.sock') }, 300);
    let s: Snapshot;
    try {
      s = await buildSnapshot(ctx, { now: NOW });
    } finally {
      for (const conn of held) conn.destroy();
      await new Promise((resolve) => hung.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(s.problems).toHaveLength(1);
    expect(s.problems[0]?.message).toMatch(/^tmux: .*timed out/);
    expect(ids(s)).toContain('harness:sheets-clone');
  });
});
