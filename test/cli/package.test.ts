/**
 * tower as an installed npm package: the packed tarball holds the built bundle and nothing of the
 * tests, installs into a fresh prefix without downloading anything, and the installed `tower` runs
 * (--version, status --json, and the control room in a private tmux server).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.js';
import { bundleStatusFile, makeStatusCache } from '../../scripts/status-file.js';
import { tempDir } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let dir: string;
let tgz: string;
let towerBin: string;
let env: NodeJS.ProcessEnv;
/** What npm said on stderr while installing the tarball. */
let installWarnings = '';
const socket = uniqueSocketName();

beforeAll(async () => {
  dir = tempDir('tower-pack-');
  // The package as `npm pack` sees it, with a dist/ built from the current source (the working
  // tree's dist/ may be half-rebuilt by another build at this moment).
  const pkg = path.join(dir, 'pkg');
  fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  for (const f of ['package.json', 'README.md', 'bin/tower.js', 'bin/package.json', 'bin/status-loader.cjs'])
    fs.copyFileSync(path.join(REPO, f), path.join(pkg, f));
  await bundle(path.join(pkg, 'dist'), undefined, { logLevel: 'error', sourcemap: true });
  await bundle(
    path.join(pkg, 'dist'),
    { 'tower-reader': 'src/cli/reader-main.ts' },
    { logLevel: 'error', splitting: false, minify: true },
  );
  await bundleStatusFile(path.join(pkg, 'dist'), { logLevel: 'error' });
  expect(makeStatusCache(path.join(pkg, 'dist'))).toBe(true);
  fs.mkdirSync(path.join(pkg, 'test'));
  fs.writeFileSync(path.join(pkg, 'test', 'left-out.test.ts'), '');
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: pkg,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  tgz = path.join(dir, (JSON.parse(out) as { filename: string }[])[0]?.filename ?? '');
  const prefix = path.join(dir, 'prefix');
  // --offline: the installed package must need nothing from a registry.
  const install = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tgz], {
    encoding: 'utf8',
  });
  expect(install.status, install.stderr).toBe(0);
  installWarnings = install.stderr;
  towerBin = path.join(prefix, 'bin', 'tower');
  const home = path.join(dir, 'home');
  fs.mkdirSync(path.join(home, 'claude'), { recursive: true });
  env = {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    TMUX: '',
    NO_COLOR: '1',
  };
}, 120_000);

afterAll(async () => {
  await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the packed tower', () => {
  it('holds the bundle and the launcher, nothing of the tests or the sources', () => {
    const files = execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).trim().split('\n');
    expect(files).toContain('package/bin/tower.js');
    expect(files).toContain('package/dist/cli.js');
    // The reader a box without tower is sent over ssh.
    expect(files).toContain('package/dist/tower-reader.js');
    // `tower status` on Node 20: its one file, the code compiled for it, and the loader.
    for (const f of [
      'package/bin/package.json',
      'package/bin/status-loader.cjs',
      'package/dist/status.cjs',
      'package/dist/status.cjs.cache',
      'package/dist/config-schema.cjs',
      'package/dist/markdown-reader.cjs',
    ])
      expect(files).toContain(f);
    expect(files.filter((f) => /^package\/(test|src|scripts)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies?: object };
    // Everything is in the bundle: installing downloads nothing.
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it('installs with no install script to approve, and the tarball npm pack writes is ignored by git', () => {
    // npm 11 warns of every install script not approved: the package has none (it builds on pack).
    expect(installWarnings).not.toMatch(/install-scripts|prepare/);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts[hook]).toBeUndefined();
    const ignored = spawnSync('git', ['check-ignore', '-q', 'tower-0.1.0.tgz'], { cwd: REPO });
    expect(ignored.status).toBe(0);
  });

  it('installs into a fresh prefix and runs --version and status --json', async () => {
    const version = await execa(towerBin, ['--version'], { env, extendEnv: true, reject: false });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.trim()).toBe('0.1.0');
    const status = await execa(towerBin, ['status', '--json', '-L', socket], { env, extendEnv: true, reject: false });
    expect(status.stderr).toBe('');
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ version: 1, runs: [] });
  });

  it('opens the control room in a terminal and quits on q', async () => {
    const vars = Object.entries(env)
      .map(([k, v]) => `${k}='${v ?? ''}'`)
      .join(' ');
    const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { timeout: 10_000 });
    await tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      '100',
      '-y',
      '30',
      `env -u CI -u TMUX ${vars} ${towerBin} -L ${socket}; echo TOWER-EXIT=$?; sleep 100000`,
    );
    const screen = async () => (await tmux('capture-pane', '-p')).stdout;
    await waitFor(async () => /tower · 0 runs[\s\S]*q quit/.test(await screen()), 20_000, { what: 'the control room' });
    await tmux('send-keys', 'q');
    await waitFor(async () => (await screen()).includes('TOWER-EXIT=0'), 10_000, { what: 'tower to quit' });
  });
});
