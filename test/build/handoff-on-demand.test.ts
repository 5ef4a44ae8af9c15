/**
 * The Markdown parser is loaded only to read a handoff: the real bundle carries it in a file of its
 * own, which `tower status` on a box without handoffs never opens (it runs with the file gone), and
 * which a box with a handoff loads to read it, with the same result as the readers from source.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.js';
import { HANDOFF_PARSER_FILE } from '../../scripts/handoff-on-demand.js';
import { readTeams } from '../../src/systems/claude-teams/teams.js';
import { readTinaRun } from '../../src/systems/tina/read.js';
import { DEFAULT_READ_SETTINGS } from '../../src/systems/types.js';
import { tempDir } from '../helpers/box.js';
import { copyFixtureTree } from '../helpers/fixtures.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let dir: string;
let out: string;

beforeAll(async () => {
  dir = tempDir('tower-handoff-');
  out = path.join(dir, 'dist');
  await bundle(out, undefined, { logLevel: 'error' });
  fs.writeFileSync(
    path.join(dir, 'run.mjs'),
    `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'cli.js')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  copyFixtureTree('claude', path.join(dir, 'claude'), dir);
  copyFixtureTree('tina/worktrees', path.join(dir, 'worktrees'), dir);
  // The same run without its handoff.
  copyFixtureTree('tina/worktrees/old-feature', path.join(dir, 'bare', 'old-feature'), dir);
  fs.rmSync(path.join(dir, 'bare', 'old-feature', '.tina', 'phase-1', 'handoff.md'));
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Status {
  runs: { id: string; tasks: { id: string; subject: string }[]; handoff: { path: string } | null }[];
}

function status(root: string): { code: number | null; stderr: string; snapshot: Status | null } {
  const r = spawnSync(process.execPath, [path.join(dir, 'run.mjs'), 'status', '--json', '-L', uniqueSocketName(), '--claude-dir', path.join(dir, 'claude'), '--root', root], {
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stderr: r.stderr, snapshot: r.status === 0 ? (JSON.parse(r.stdout) as Status) : null };
}

describe('the Markdown parser in the bundle', () => {
  it('is a file of its own, and no chunk holds the parser', () => {
    expect(fs.existsSync(path.join(out, HANDOFF_PARSER_FILE))).toBe(true);
    for (const f of fs.readdirSync(out).filter((n) => n.endsWith('.js'))) {
      expect(fs.readFileSync(path.join(out, f), 'utf8'), f).not.toContain('micromark');
    }
  });

  it('is never loaded by `tower status` on a box without handoffs', () => {
    const parser = path.join(out, HANDOFF_PARSER_FILE);
    const away = `${parser}.away`;
    fs.renameSync(parser, away);
    try {
      const r = status(path.join(dir, 'bare', 'old-feature'));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.snapshot?.runs.some((run) => run.id === 'tina:old-feature' && run.handoff === null)).toBe(true);
    } finally {
      fs.renameSync(away, parser);
    }
  }, 60_000);

  it('is loaded to read a handoff, which reads as from source', () => {
    const root = path.join(dir, 'worktrees', 'my-feature');
    const r = status(root);
    expect(r.stderr).toBe('');
    const run = r.snapshot?.runs.find((x) => x.id === 'tina:my-feature');
    expect(run?.handoff?.path).toBe(path.join(root, '.claude', 'tina', 'phase-2', 'handoff.md'));
    const fromSource = readTinaRun(root, path.join(root, '.claude', 'tina'), readTeams(path.join(dir, 'claude')).teams, { ...DEFAULT_READ_SETTINGS, now: Date.now() });
    expect(fromSource.run.handoff).not.toBeNull();
    expect(run?.tasks.map((t) => [t.id, t.subject])).toEqual(fromSource.run.tasks.map((t) => [t.id, t.subject]));
    expect(run?.tasks.length).toBeGreaterThan(0);
  }, 60_000);
});
