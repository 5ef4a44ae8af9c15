/**
 * Handoffs are read by micromark (with GitHub's extensions), loaded on demand: in the chunks of
 * `tower` the parser is a chunk of its own that nothing imports but lazily, the single-file reader
 * sent over ssh holds it, and `tower status` from the real bundle reads a handoff as the readers from
 * source do.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { bundle } from '../../scripts/bundle.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { tempDir } from '../helpers/box.js';
import { copyFixtureTree } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let dir: string;
let out: string;
let chunked: Metafile;
let reader: Metafile;

beforeAll(async () => {
  dir = tempDir('tower-handoff-');
  out = path.join(dir, 'dist');
  const main = await bundle(out, undefined, { logLevel: 'error', metafile: true });
  const single = await bundle(
    out,
    { 'tower-reader': 'src/cli/reader-main.ts' },
    { splitting: false, minify: true, metafile: true, write: false, logLevel: 'error' },
  );
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

/** The node_modules packages that went into any output of a build. */
function packagesIn(metafile: Metafile): Set<string> {
  const names = new Set<string>();
  for (const o of Object.values(metafile.outputs)) {
    for (const input of Object.keys(o.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (m?.[1]) names.add(m[1]);
    }
  }
  return names;
}

interface Status {
  runs: {
    id: string;
    tasks: { id: string; subject: string; status: string; owner: string | null }[];
    handoff: { path: string } | null;
  }[];
}

describe('handoffs in the bundle', () => {
  it('are read by micromark, in a chunk of its own loaded only on demand, and in the single-file reader', () => {
    const markdown = (names: Set<string>): string[] => [...names].filter((n) => /^(micromark|mdast-util-)/.test(n));
    expect(markdown(packagesIn(chunked))).toContain('micromark');
    expect(markdown(packagesIn(reader))).toContain('mdast-util-from-markdown');
    const holders = Object.entries(chunked.outputs).filter(([, o]) =>
      Object.keys(o.inputs).some((i) => /node_modules\/micromark\//.test(i)),
    );
    expect(holders).toHaveLength(1);
    const [chunk] = holders[0]!;
    // Every import of that chunk is a lazy one: the status path and the first frame never load it.
    const imports = Object.values(chunked.outputs).flatMap((o) =>
      o.imports.filter((i) => chunk.endsWith(i.path) || i.path.endsWith(path.basename(chunk))),
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((i) => i.kind === 'dynamic-import')).toBe(true);
    expect(fs.readdirSync(out).filter((f) => f.endsWith('.cjs'))).toEqual([]);
  });

  it('read as from source when `tower status` runs from the bundle', () => {
    const root = path.join(dir, 'worktrees', 'my-feature');
    const r = spawnSync(
      process.execPath,
      [
        path.join(dir, 'run.mjs'),
        'status',
        '--json',
        '-L',
        uniqueSocketName(),
        '--claude-dir',
        path.join(dir, 'claude'),
        '--root',
        root,
      ],
      {
        env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const run = (JSON.parse(r.stdout) as Status).runs.find((x) => x.id === 'tina:my-feature');
    expect(run?.handoff?.path).toBe(path.join(root, '.claude', 'tina', 'phase-2', 'handoff.md'));
    const fromSource = readTinaRun(
      root,
      path.join(root, '.claude', 'tina'),
      readTeams(path.join(dir, 'claude')).teams,
      { ...DEFAULT_READ_SETTINGS, now: Date.now() },
    );
    expect(fromSource.run.handoff).not.toBeNull();
    expect(run?.tasks.length).toBeGreaterThan(0);
    expect(run?.tasks.map((t) => [t.id, t.subject, t.status, t.owner])).toEqual(
      fromSource.run.tasks.map((t) => [t.id, t.subject, t.status, t.owner]),
    );
  }, 60_000);
});
