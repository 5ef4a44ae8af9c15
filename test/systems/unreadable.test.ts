/**
 * Files tower can't read, for every system: a state directory it may not list (read as an
 * unprivileged user: the tests run as root, who may read anything), and state files that are a FIFO,
 * a directory, a device or a symlink loop. Each is a problem naming the path and the reason; a run
 * tower can't see into is of unknown status, never idle; a handoff that is not a file is never
 * "written 0 s ago"; and nothing blocks on a FIFO.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotSchema } from '../../src/model/schema.js';
import type { Run, Snapshot } from '../../src/model/model.js';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { buildBox } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { copyFixtureTree, tempDirsPerTest } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';

const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/** The folders above `p`, up to the root. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) out.push(d);
  return out;
}

describe('a state directory tower may not list (read as an unprivileged user)', () => {
  let cli: BuiltCli;
  let box: Box;
  let snap: Snapshot;
  const locked: string[] = [];
  const opened = new Map<string, number>();

  beforeAll(async () => {
    cli = await buildCli();
    box = buildBox();
    // The launcher and the box must be readable by the unprivileged user; only the locked dirs are not.
    for (const dir of [path.dirname(path.dirname(cli.bin)), box.dir]) fs.chmodSync(dir, 0o755);
    // Their temp folders may sit in a private folder of the test run: let the user pass through it.
    for (const dir of [...ancestors(cli.bin), ...ancestors(box.dir)]) {
      const mode = fs.statSync(dir).mode & 0o777;
      if ((mode & 0o001) === 0 && !opened.has(dir)) {
        opened.set(dir, mode);
        fs.chmodSync(dir, mode | 0o001);
      }
    }
    locked.push(
      path.join(box.project('auth-flow'), '.claude', 'tina'),
      path.join(box.project('mixed'), '.harness'),
      path.join(box.project('epic-app'), '.sage', 'state'),
      path.join(box.project('mixed'), 'memory', 'state'),
      path.join(box.claudeDir, 'tasks', 'docs-sweep'),
      path.join(box.project('legacy-search'), '.tina', 'phase-1'),
    );
    for (const dir of locked) fs.chmodSync(dir, 0o000);
    const args = [
      'status',
      '--json',
      '--claude-dir',
      box.claudeDir,
      '-L',
      uniqueSocketName(),
      ...box.roots.flatMap((r) => ['--root', r]),
    ];
    const r = spawnSync('setpriv', [...NOBODY, process.execPath, cli.bin, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: box.dir, NO_COLOR: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    snap = SnapshotSchema.parse(JSON.parse(r.stdout)) as Snapshot;
  }, 120_000);

  afterAll(() => {
    for (const [dir, mode] of opened) fs.chmodSync(dir, mode);
    for (const dir of locked) fs.chmodSync(dir, 0o755);
    box?.remove();
    cli?.remove();
  });

  const runAt = (stateDir: string): Run => {
    const run = snap.runs.find((x) => x.stateDir === stateDir);
    if (!run) throw new Error(`no run at ${stateDir}: ${snap.runs.map((x) => x.stateDir).join(', ')}`);
    return run;
  };

  it.each([
    ['tina', 0],
    ['harness', 1],
    ['sage', 2],
    ['dotagent', 3],
  ])('a %s run: status unknown, with the state directory and "permission denied" as a problem', (_system, i) => {
    const dir = locked[i] ?? '';
    const run = runAt(dir);
    expect(run.status).toBe('unknown');
    expect(run.problems).toContainEqual({ file: dir, message: "can't list the directory: permission denied" });
    // Nothing is made up from files tower could not look at: no gate appears.
    expect(run.gates).toEqual([]);
  });

  it('a tina phase folder that is locked: its status file is a problem with the reason, not a missing file', () => {
    const run = runAt(path.join(box.project('legacy-search'), '.tina'));
    expect(run.problems).toContainEqual({
      file: path.join(locked[5] ?? '', 'status.json'),
      message: 'permission denied',
    });
  });

  it('a Claude team whose task folder is locked: the folder and the reason as a problem', () => {
    const run = snap.runs.find((x) => x.id === 'claude-team:docs-sweep');
    expect(run?.problems).toContainEqual({ file: locked[4], message: "can't list the directory: permission denied" });
  });
});

describe('state files that are not files', () => {
  const tempDir = tempDirsPerTest('tower-notfile-');
  const NOW = Date.parse('2026-01-30T12:03:00Z');
  const settings = { ...DEFAULT_READ_SETTINGS, now: NOW };

  /** The my-feature worktree (phase 2 current) with its phase-2 handoff replaced by `make`. */
  function withHandoff(make: (file: string) => void): Run {
    const tmp = tempDir();
    copyFixtureTree('tina/worktrees', path.join(tmp, 'worktrees'), tmp);
    const root = path.join(tmp, 'worktrees', 'my-feature');
    const stateDir = path.join(root, '.claude', 'tina');
    // Only phase 2 has a handoff: nothing else stands in for it.
    fs.rmSync(path.join(stateDir, 'phase-1', 'handoff.md'), { force: true });
    const file = path.join(stateDir, 'phase-2', 'handoff.md');
    fs.rmSync(file, { force: true });
    make(file);
    return readTinaRun(root, stateDir, [], settings).run;
  }

  const handoffProblem = (run: Run) => run.problems.find((p) => p.file?.endsWith(path.join('phase-2', 'handoff.md')));

  it('a handoff that is a FIFO: a problem, no handoff shown, and the read does not block', () => {
    const run = withHandoff((f) => execFileSync('mkfifo', [f]));
    expect(handoffProblem(run)?.message).toBe('not a regular file: it is a FIFO (named pipe)');
    expect(run.handoff).toBeNull();
  });

  it('a handoff that is a directory: a problem, no handoff shown', () => {
    const run = withHandoff((f) => fs.mkdirSync(f));
    expect(handoffProblem(run)?.message).toBe('not a regular file: it is a directory');
    expect(run.handoff).toBeNull();
  });

  it('a handoff that is a device (a link to /dev/zero, never read): a problem, no handoff shown', () => {
    const run = withHandoff((f) => fs.symlinkSync('/dev/zero', f));
    expect(handoffProblem(run)?.message).toBe('not a regular file: it is a character device');
    expect(run.handoff).toBeNull();
  });

  it('a handoff that is a symlink loop: a problem, no handoff shown', () => {
    const run = withHandoff((f) => {
      fs.symlinkSync(`${f}.b`, f);
      fs.symlinkSync(f, `${f}.b`);
    });
    expect(handoffProblem(run)?.message).toBe('is a symlink loop (too many levels of symbolic links)');
    expect(run.handoff).toBeNull();
  });

  it('a supervisor state of an unrecognised shape: a problem naming the file, status unknown', () => {
    const tmp = tempDir();
    copyFixtureTree('tina/worktrees', path.join(tmp, 'worktrees'), tmp);
    const root = path.join(tmp, 'worktrees', 'my-feature');
    const stateDir = path.join(root, '.claude', 'tina');
    fs.writeFileSync(path.join(stateDir, 'supervisor-state.json'), '{"hello": "world"}\n');
    const run = readTinaRun(root, stateDir, [], settings).run;
    expect(run.problems).toContainEqual({
      file: path.join(stateDir, 'supervisor-state.json'),
      message: expect.stringMatching(/^unrecognised shape/),
    });
    expect(run.status).toBe('unknown');
  });
});
