/**
 * zod is loaded only when there is something to check: the real bundle, run as `tower status`, loads
 * none of the files that hold zod without a config file, and loads them to check one that exists.
 * (The start-path test sees static imports only; this one watches what a run really loads.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let dir: string;
let out: string;
let zodFiles: Set<string>;

beforeAll(async () => {
  dir = tempDir('tower-lazy-');
  out = path.join(dir, 'dist');
  const result = await bundle(out, undefined, { metafile: true, logLevel: 'error' });
  if (!result.metafile) throw new Error('no metafile');
  zodFiles = new Set(
    Object.entries(result.metafile.outputs)
      .filter(
        ([file, o]) => !file.endsWith('.map') && Object.keys(o.inputs).some((i) => i.includes('node_modules/zod/')),
      )
      .map(([file]) => path.basename(file)),
  );
  // A module hook that writes down every file the run loads.
  fs.writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import fs from 'node:fs';\nexport async function load(url, context, next) {\n  if (url.startsWith('file:')) fs.appendFileSync(${JSON.stringify(path.join(dir, 'loaded.txt'))}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'run.mjs'),
    `const { main } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'cli.js')).href)});\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs `tower status --json` on an empty box with XDG_CONFIG_HOME at `config`; the exit code and the bundle files it loaded. */
function status(config: string): { code: number | null; stderr: string; loaded: string[] } {
  const log = path.join(dir, 'loaded.txt');
  fs.rmSync(log, { force: true });
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(dir, 'register.mjs')).href,
      path.join(dir, 'run.mjs'),
      'status',
      '--json',
      '-L',
      uniqueSocketName(),
      '--claude-dir',
      path.join(dir, 'claude'),
    ],
    {
      env: { ...process.env, XDG_CONFIG_HOME: config, XDG_STATE_HOME: path.join(dir, 'state') },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  const urls = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const outUrl = pathToFileURL(out).href;
  return {
    code: r.status,
    stderr: r.stderr,
    loaded: urls.filter((u) => u.startsWith(outUrl)).map((u) => path.basename(new URL(u).pathname)),
  };
}

describe('the validator', () => {
  it('is in the bundle, in files of its own', () => {
    expect(zodFiles.size).toBeGreaterThan(0);
    expect(zodFiles.has('cli.js')).toBe(false);
  });

  it('is not loaded by `tower status` when there is no config file', () => {
    const r = status(path.join(dir, 'no-config'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.loaded).toContain('cli.js');
    expect(r.loaded.filter((f) => zodFiles.has(f))).toEqual([]);
  }, 60_000);

  it('is loaded to check a config file that exists', () => {
    const config = path.join(dir, 'with-config');
    writeFile(path.join(config, 'tower', 'config.json'), { readonly: true });
    const r = status(config);
    expect(r.code).toBe(0);
    expect(r.loaded.filter((f) => zodFiles.has(f)).length).toBeGreaterThan(0);
    writeFile(path.join(config, 'tower', 'config.json'), { pollIntervalMs: 5 });
    const bad = status(config);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('pollIntervalMs: at least 100 ms');
  }, 60_000);
});
