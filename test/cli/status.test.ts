import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusCommand } from '../../src/commands/status.js';
import { formatStatus, phaseText } from '../../src/commands/status-text.js';
import { emptyRun } from '../../src/model/model.js';
import { SnapshotSchema } from '../../src/model/schema.js';
import type { Snapshot } from '../../src/model/model.js';
import { buildBox, tempDir, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { testContext } from '../helpers/context.js';
import { startTmux, uniqueSocketName } from '../helpers/tmux.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { joinedNow } from '../helpers/fixtures.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const recordLoads = path.join(repo, 'test', 'helpers', 'record-loads.js');

let cli: BuiltCli;
let box: Box;
let tmux: TmuxFixture;
let xdg: string;
let leadPane: string;

beforeAll(async () => {
  cli = await buildCli();
  box = buildBox();
  tmux = await startTmux();
  // The phase lead's team file names no pane: tina's session gives it one.
  leadPane = await tmux.newSession('tina-auth-flow-phase-2', box.project('auth-flow'));
  // The box's teams joined the day the fixture was made: they join now, after their panes started.
  joinedNow(box.claudeDir);
  xdg = tempDir('tower-xdg-');
}, 60_000);

afterAll(async () => {
  await tmux.kill();
  box.remove();
  cli.remove();
  fs.rmSync(xdg, { recursive: true, force: true });
});

/** Runs the built CLI with the user's config kept out (XDG_CONFIG_HOME is a temp dir). */
function tower(args: string[], opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}) {
  const r = spawnSync(process.execPath, [...(opts.nodeArgs ?? []), cli.bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: xdg, NO_COLOR: '', ...opts.env },
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const boxArgs = () => ['--claude-dir', box.claudeDir, '-L', tmux.name, ...box.roots.flatMap((r) => ['--root', r])];

describe('tower status --json (built CLI)', () => {
  it('prints exactly the contract object for the box', () => {
    const r = tower(['status', '--json', ...boxArgs()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const parsed = SnapshotSchema.safeParse(JSON.parse(r.stdout));
    expect(parsed.success).toBe(true);
    const snap = parsed.data as Snapshot;
    expect(snap.version).toBe(1);
    expect(snap.runs.map((x) => x.id)).toEqual([
      'tina:legacy-search',
      'dotagent:wf-20260116-auth',
      'harness:sheets-clone',
      'sage:EPIC-002',
      'tina:auth-flow',
      'claude-team:docs-sweep',
      'dotagent:wf-mixed',
      'harness:mixed',
    ]);
    // Read by a script through a pipe: one line, half the bytes of the indented form.
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(r.stdout))}\n`);
  });

  it('indents the JSON for a person at a terminal', async () => {
    const tty = testContext({
      claudeDir: box.claudeDir,
      roots: [box.project('legacy-search')],
      socketName: uniqueSocketName(),
    });
    (tty.out as NodeJS.WriteStream).isTTY = true;
    expect(await statusCommand(tty, { json: true })).toBe(0);
    expect(tty.stdout()).toBe(`${JSON.stringify(JSON.parse(tty.stdout()), null, 2)}\n`);
    expect(tty.stdout().split('\n').length).toBeGreaterThan(10);
  });

  it("carries each member's activity, read from one capture of its pane", () => {
    const r = tower(['status', '--json', ...boxArgs()]);
    const snap = JSON.parse(r.stdout) as Snapshot;
    const members = snap.runs.flatMap((run) => run.members);
    expect(members.every((m) => ['working', 'waiting', 'idle', 'unknown'].includes(m.activity ?? ''))).toBe(true);
    // The phase lead's pane runs a silent `sleep`: nothing moving, no prompt, no question.
    const lead = snap.runs.find((x) => x.id === 'tina:auth-flow')?.members.find((m) => m.paneId === leadPane);
    expect(lead).toMatchObject({ activity: 'idle', activityCue: 'silent' });
    // Members without a live pane of their own are unknown.
    expect(members.filter((m) => m.state !== 'alive').every((m) => m.activity === 'unknown')).toBe(true);
  });

  it('exits 0 with broken files, which become problems on their runs', () => {
    const broken = buildBox();
    try {
      fs.writeFileSync(
        path.join(broken.project('auth-flow'), '.claude', 'tina', 'supervisor-state.json'),
        '{"feature": "auth-fl',
      );
      fs.writeFileSync(path.join(broken.claudeDir, 'tasks', 'docs-sweep', '2.json'), Buffer.from([0, 1, 2, 3]));
      const r = tower([
        'status',
        '--json',
        '--claude-dir',
        broken.claudeDir,
        '-L',
        tmux.name,
        ...broken.roots.flatMap((x) => ['--root', x]),
      ]);
      expect(r.code).toBe(0);
      const snap = SnapshotSchema.parse(JSON.parse(r.stdout));
      const files = snap.runs.flatMap((x) => x.problems.map((p) => p.file));
      expect(files).toContain(path.join(broken.project('auth-flow'), '.claude', 'tina', 'supervisor-state.json'));
      expect(files).toContain(path.join(broken.claudeDir, 'tasks', 'docs-sweep', '2.json'));
    } finally {
      broken.remove();
    }
  });

  it('with no tmux server: exit 0, one problem saying the server is not running, liveness unknown', () => {
    const socket = uniqueSocketName();
    const r = tower([
      'status',
      '--json',
      '--claude-dir',
      box.claudeDir,
      '-L',
      socket,
      '--root',
      box.project('auth-flow'),
    ]);
    expect(r.code).toBe(0);
    const snap = SnapshotSchema.parse(JSON.parse(r.stdout));
    expect(snap.problems).toEqual([
      { file: null, message: expect.stringMatching(new RegExp(`^tmux server -L ${socket} is not running: `)) },
    ]);
    expect(snap.runs.find((x) => x.id === 'tina:auth-flow')?.members.find((m) => m.paneId === '%9002')?.state).toBe(
      'unknown',
    );
  });

  it('from the chunks (Node 22+, or a status the one file hands on) loads no react, ink or UI chunk', () => {
    const log = path.join(xdg, 'loads.txt');
    fs.rmSync(log, { force: true });
    // cli.js's main, run as bin/tower.js runs it where Node keeps compiled code itself.
    const runMain =
      'import(process.argv[1]).then((m) => m.main(process.argv.slice(2))).then((c) => { process.exitCode = c; })';
    const r = spawnSync(
      process.execPath,
      ['--import', recordLoads, '-e', runMain, path.join(cli.dist, 'cli.js'), 'status', '--json', ...boxArgs()],
      {
        encoding: 'utf8',
        env: { ...process.env, XDG_CONFIG_HOME: xdg, TOWER_RECORD_LOADS: log },
        timeout: 20_000,
      },
    );
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as Snapshot).runs).toHaveLength(8);
    const urls = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const dist = urls.filter((u) => u.startsWith('file:') && fileURLToPath(u).startsWith(cli.dist));
    expect(dist.length).toBeGreaterThan(1); // the recorder works: cli.js and its chunks were seen

    // The UI entry chunk, as cli.js imports it lazily, must not be among them.
    const entry = fs.readFileSync(path.join(cli.dist, 'cli.js'), 'utf8');
    const uiChunk = /import\("\.\/(main-[A-Za-z0-9]+\.js)"\)/.exec(entry)?.[1];
    expect(uiChunk, 'cli.js imports src/ui/main.tsx lazily as main-*.js').toBeDefined();
    expect(dist.map((u) => path.basename(fileURLToPath(u)))).not.toContain(uiChunk);

    // Node's crypto module (17 modules of its own) is loaded only to write a file, never to read.
    expect(urls).toContain('node:child_process');
    expect(urls).not.toContain('node:crypto');

    // And no loaded file carries react or ink code (esbuild marks each bundled module with its path).
    for (const u of urls.filter((x) => x.startsWith('file:'))) {
      const file = fileURLToPath(u);
      expect(file).not.toMatch(/node_modules\/(react|ink|react-reconciler)\//);
      const code = fs.readFileSync(file, 'utf8');
      expect(code, `${path.basename(file)} holds UI code`).not.toMatch(
        /\/\/ node_modules\/(react|ink|react-reconciler|yoga-layout)\//,
      );
    }
  });

  it('on Node 20 runs from its one file, loading none of the chunks', () => {
    const log = path.join(xdg, 'loads-one-file.txt');
    fs.rmSync(log, { force: true });
    const r = tower(['status', '--json', ...boxArgs()], {
      nodeArgs: ['--import', recordLoads],
      env: { TOWER_RECORD_LOADS: log },
    });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Snapshot).runs).toHaveLength(8);
    const loaded = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((u) => u.startsWith('file:') && fileURLToPath(u).startsWith(cli.dist));
    // Where Node keeps compiled code itself (22+), the chunks are the way, as the test above runs them.
    const keepsCode = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    if (keepsCode) expect(loaded.length).toBeGreaterThan(1);
    else expect(loaded).toEqual([]);
  });
});

describe('tower status (text)', () => {
  it('says everything in words, with no escape codes when stdout is not a terminal', () => {
    const r = tower(['status', ...boxArgs()]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toMatch(/^8 runs, 5 waiting for a human\n/);
    expect(r.stdout).toContain('tina:legacy-search  BLOCKED  phase 1/2 blocked');
    expect(r.stdout).toMatch(/ESCALATION pending \d+d {2}blocked: Phase 1 blocked: Phase reviewer rejected 3 times/);
    expect(r.stdout).toMatch(
      /CHECKPOINT pending \d+[smhd] {2}pre-done: Human reviews before DONE is emitted \(grantable\)/,
    );
    expect(r.stdout).toMatch(/CHECKPOINT granted \d+[smhd] {2}plan-approval/);
    expect(r.stdout).toContain('tina:auth-flow  WAITING  phase 2/3 executing');
    // The lead's pane is a bare shell: alive, and idle by what it shows.
    expect(r.stdout).toContain(`members (auth-flow-phase-2): team-lead (lead, alive ${leadPane}, idle)`);
    expect(r.stdout).toContain('worker-1 (tina:implementer, dead %9002)');
    expect(r.stdout).toContain('spec-reviewer (tina:spec-reviewer, in-process)');
    expect(r.stdout).toContain('tasks: 4 (1 completed, 1 in_progress, 2 pending)');
    expect(r.stdout).toContain('reviews: 1 failed, 1 passed');
    expect(r.stdout).toContain('context: 72% ≥ 70% threshold');
    expect(r.stdout).toContain('warnings:\n    - context 72% ≥ 70% threshold');
    expect(r.stdout).toMatch(/problems \(1\):\n {4}- .*phase\.json: state is stale/);
  });

  it('colours only when asked and stdout is a terminal', async () => {
    const ctx = testContext({
      claudeDir: box.claudeDir,
      roots: [box.project('legacy-search')],
      socketName: uniqueSocketName(),
    });
    ctx.color = true;
    expect(await statusCommand(ctx, { json: false })).toBe(0);
    expect(ctx.stdout()).not.toContain('\u001b');
    const tty = testContext({
      claudeDir: box.claudeDir,
      roots: [box.project('legacy-search')],
      socketName: uniqueSocketName(),
    });
    tty.color = true;
    (tty.out as NodeJS.WriteStream).isTTY = true;
    await statusCommand(tty, { json: false });
    expect(tty.stdout()).toContain('\u001b[31mESCALATION pending');
    tty.color = false;
    const plain = testContext({
      claudeDir: box.claudeDir,
      roots: [box.project('legacy-search')],
      socketName: uniqueSocketName(),
    });
    (plain.out as NodeJS.WriteStream).isTTY = true;
    await statusCommand(plain, { json: false });
    expect(plain.stdout()).not.toContain('\u001b');
  });

  it('strips escape sequences that files smuggle in', () => {
    const run = {
      ...emptyRun('harness', 'x', '/r', null),
      problems: [{ file: '/r/a', message: 'bad \u001b[2J\u001b]0;owned\u0007 file' }],
    };
    const text = formatStatus({ version: 1, generatedAt: '', runs: [run], problems: [] }, { color: false, now: 0 });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('/r/a: bad  file');
  });

  it('names a phase by number of total, or by its own name', () => {
    const run = emptyRun('dotagent', 'x', null, null);
    expect(phaseText({ ...run, phase: { current: '2', total: 3, status: 'executing' } })).toBe('2/3 executing');
    expect(phaseText({ ...run, phase: { current: 'IMPLEMENTATION', total: 5, status: 'pending' } })).toBe(
      'IMPLEMENTATION pending',
    );
    expect(phaseText(run)).toBeNull();
  });

  it('says where it looked when there are no runs', () => {
    const empty = tempDir();
    try {
      const r = tower(['status', '--claude-dir', empty, '-L', uniqueSocketName()]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('No runs found.');
      expect(r.stdout).toContain(`Looked in ${empty}`);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('exits 1 only for an internal error, saying so', async () => {
    const ctx = testContext({ claudeDir: box.claudeDir, socketName: uniqueSocketName() });
    // Not a path at all: only a bug could hand the reader this.
    ctx.roots = [42 as unknown as string];
    expect(await statusCommand(ctx, { json: true })).toBe(1);
    expect(ctx.stderr()).toMatch(/^tower: could not read any state: /);
    expect(ctx.stdout()).toBe('');
  });
});

describe('a bad config file', () => {
  it('exits 2 with a message naming the key', () => {
    const dir = tempDir('tower-xdg-bad-');
    try {
      writeFile(path.join(dir, 'tower', 'config.json'), { pollIntervalMs: 'fast' });
      const r = tower(['status', '--json', '--claude-dir', box.claudeDir, '-L', uniqueSocketName()], {
        env: { XDG_CONFIG_HOME: dir },
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('pollIntervalMs');
      writeFile(path.join(dir, 'tower', 'config.json'), { colour: true });
      const u = tower(['status', '--claude-dir', box.claudeDir, '-L', uniqueSocketName()], {
        env: { XDG_CONFIG_HOME: dir },
      });
      expect(u.code).toBe(2);
      expect(u.stderr).toContain('colour');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
