/**
 * Handoffs are read by the Markdown library (micromark, mdast-util-from-markdown), which the bundle
 * keeps in a chunk of its own that no start path reaches through static imports: `tower status`
 * loads it only when a handoff's content is read, and then reads the handoff as the readers from
 * source do. The single-file reader sent over ssh holds the library inside.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { bundle } from '../../scripts/bundle.js';
import { startPaths } from '../../scripts/start-paths.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { tempDir } from '../helpers/box.js';
import { copyFixtureTree } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';

const recordLoads = path.join(import.meta.dirname, '..', 'helpers', 'record-loads.js');

let dir: string;
let out: string;
let chunked: Metafile;
let reader: Metafile;

beforeAll(async () => {
  dir = tempDir('tower-handoff-');
  out = path.join(dir, 'dist');
  const main = await bundle(out, undefined, { logLevel: 'error', metafile: true });
  const single = await bundle(out, { 'tower-reader': 'src/reader-main.ts' }, { splitting: false, minify: true, metafile: true, write: false, logLevel: 'error' });
  if (!main.metafile || !single.metafile) throw new Error('no metafile');
  chunked = main.metafile;
  reader = single.metafile;
  fs.writeFileSync(
    path.join(dir, 'run.mjs'),
    `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'cli.js')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  copyFixtureTree('claude', path.join(dir, 'claude'), dir);
  copyFixtureTree('tina/worktrees', path.join(dir, 'worktrees'), dir);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MARKDOWN = /node_modules\/(micromark|mdast-util-from-markdown)\//;

/** The output files (base names) holding any input that matches `input`. */
function outputsWith(metafile: Metafile, input: RegExp): string[] {
  return Object.entries(metafile.outputs)
    .filter(([file, o]) => !file.endsWith('.map') && Object.keys(o.inputs).some((i) => input.test(i)))
    .map(([file]) => path.basename(file));
}

interface Status {
  runs: { id: string; tasks: { id: string; subject: string; status: string; owner: string | null }[]; handoff: { path: string } | null }[];
}

/** `tower status --json` of `root` from the chunks, with the dist files it loaded. */
function statusOf(root: string, claudeDir = path.join(dir, 'claude')): { status: Status; loaded: string[] } {
  const log = path.join(dir, `loads-${path.basename(root)}.txt`);
  fs.rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--import', recordLoads, path.join(dir, 'run.mjs'), 'status', '--json', '-L', uniqueSocketName(), '--claude-dir', claudeDir, '--root', root], {
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state'), TOWER_RECORD_LOADS: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const loaded = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)) : [];
  return { status: JSON.parse(r.stdout) as Status, loaded: loaded.filter((f) => f.startsWith(out)).map((f) => path.basename(f)) };
}

describe('handoffs in the bundle', () => {
  it('are read by the Markdown library, from a chunk no start path loads up front', () => {
    const library = outputsWith(chunked, MARKDOWN);
    expect(library).toHaveLength(1);
    expect(outputsWith(chunked, /src\/systems\/tina\/handoff\.ts$/)).toEqual(library);
    for (const [name, p] of Object.entries(startPaths(chunked))) expect(p.files, name).not.toContain(library[0]);
  });

  it('are read by the library inside the single-file reader sent over ssh', () => {
    expect(Object.keys(reader.outputs).filter((f) => !f.endsWith('.map'))).toHaveLength(1);
    expect(Object.keys(reader.inputs).some((i) => MARKDOWN.test(i))).toBe(true);
  });

  it('read as from source when `tower status` runs from the bundle, loading the library for it', () => {
    const root = path.join(dir, 'worktrees', 'my-feature');
    const { status, loaded } = statusOf(root);
    const run = status.runs.find((x) => x.id === 'tina:my-feature');
    expect(run?.handoff?.path).toBe(path.join(root, '.claude', 'tina', 'phase-2', 'handoff.md'));
    const fromSource = readTinaRun(root, path.join(root, '.claude', 'tina'), readTeams(path.join(dir, 'claude')).teams, { ...DEFAULT_READ_SETTINGS, now: Date.now() });
    expect(fromSource.run.handoff).not.toBeNull();
    expect(run?.tasks.length).toBeGreaterThan(0);
    expect(run?.tasks.map((t) => [t.id, t.subject, t.status, t.owner])).toEqual(fromSource.run.tasks.map((t) => [t.id, t.subject, t.status, t.owner]));
    expect(loaded).toContain(outputsWith(chunked, MARKDOWN)[0]);
  }, 60_000);

  it('leave the library unloaded when no run has a handoff', () => {
    const root = path.join(dir, 'no-handoff');
    fs.cpSync(path.join(dir, 'worktrees', 'my-feature'), root, { recursive: true });
    for (const phase of fs.readdirSync(path.join(root, '.claude', 'tina')).filter((n) => n.startsWith('phase-'))) fs.rmSync(path.join(root, '.claude', 'tina', phase, 'handoff.md'), { force: true });
    // A Claude dir of its own: the fixture's session registry names worktrees that have handoffs.
    const { status, loaded } = statusOf(root, path.join(dir, 'empty-claude'));
    expect(status.runs.map((r) => [r.id, r.handoff])).toEqual([['tina:my-feature', null]]);
    expect(loaded).toContain('cli.js');
    expect(loaded).not.toContain(outputsWith(chunked, MARKDOWN)[0]);
  }, 60_000);
});
