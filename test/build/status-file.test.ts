/**
 * `tower status` as one file with the code V8 compiled for it (scripts/status-file.js): the kept code
 * is taken, the answer is the chunks' answer, a cache V8 refuses changes nothing but speed, and the
 * file holds nothing of the screen, the validator or the process wrapper.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from '../../scripts/bundle.js';
import { bundleStatusFile, makeStatusCache, STATUS_CACHE, STATUS_FILE } from '../../scripts/status-file.js';
import { STATUS_FILE_BUDGET } from '../../scripts/start-paths.js';
import { buildBox, tempDir } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');

let dist: string;
let box: Box;
let xdg: string;

beforeAll(async () => {
  dist = tempDir('tower-status-file-');
  box = buildBox();
  xdg = tempDir('tower-xdg-');
  await bundle(dist, { cli: 'src/cli/cli.ts' }, { logLevel: 'error' });
  await bundleStatusFile(dist, { logLevel: 'error' });
}, 120_000);

afterAll(() => {
  box.remove();
  fs.rmSync(dist, { recursive: true, force: true });
  fs.rmSync(xdg, { recursive: true, force: true });
});

// One server name for every run: tower status names the server it found not running, and the
// outputs of two runs are compared.
const socket = uniqueSocketName();
const statusArgs = () => [
  'status',
  '--json',
  '--claude-dir',
  box.claudeDir,
  '-L',
  socket,
  ...box.roots.flatMap((r) => ['--root', r]),
];

/** Runs `script` (written to a file: `node -e` itself loads crypto) with argv; stdout and exit code. */
function node(script: string, argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const file = path.join(xdg, script === viaChunks ? 'via-chunks.mjs' : 'via-file.cjs');
  fs.writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file, ...argv], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: xdg },
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The status file through the loader tower uses; prints whether node's crypto module was loaded to stderr. */
const viaFile = `const { runStatus } = require(${JSON.stringify(path.join(REPO, 'bin', 'status-loader.cjs'))});
runStatus(process.argv[2], process.argv.slice(3)).then((c) => {
  process.exitCode = c ?? 99;
  process.stderr.write(process.moduleLoadList.includes('NativeModule crypto') ? 'crypto\\n' : '');
});`;
const viaChunks =
  'import(process.argv[2]).then((m) => m.main(process.argv.slice(3))).then((c) => { process.exitCode = c; })';

/**
 * What V8 made of the kept code when the status file was loaded in a fresh process: taken (false),
 * refused (true) or never offered (undefined). A fresh process each time: within one, V8 answers a
 * second compile of the same source from its own memory.
 */
function keptCodeRefused(): boolean | undefined {
  const script = `const l = require(${JSON.stringify(path.join(REPO, 'bin', 'status-loader.cjs'))}).loadStatusFile(process.argv[2]);
process.stdout.write(JSON.stringify({ refused: l.script.cachedDataRejected ?? null }));`;
  const file = path.join(xdg, 'refused.cjs');
  fs.writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file, path.join(dist, STATUS_FILE)], { encoding: 'utf8', timeout: 30_000 });
  return (JSON.parse(r.stdout) as { refused: boolean | null }).refused ?? undefined;
}

const withoutClock = (json: string): unknown => ({ ...(JSON.parse(json) as object), generatedAt: null });

describe('the status file', () => {
  it('keeps the code compiled on the fixture box, which V8 then takes', () => {
    expect(makeStatusCache(dist)).toBe(true);
    expect(fs.statSync(path.join(dist, STATUS_CACHE)).size).toBeGreaterThan(10_000);
    expect(keptCodeRefused()).toBe(false);
  }, 60_000);

  it('answers as the chunks do, and loads no crypto module', () => {
    const file = node(viaFile, [path.join(dist, STATUS_FILE), ...statusArgs()]);
    const chunks = node(viaChunks, [path.join(dist, 'cli.js'), ...statusArgs()]);
    expect(file.code).toBe(0);
    expect(file.stderr).toBe('');
    expect(chunks.code).toBe(0);
    expect((JSON.parse(file.stdout) as { runs: unknown[] }).runs).toHaveLength(8);
    expect(withoutClock(file.stdout)).toEqual(withoutClock(chunks.stdout));
  });

  it('hands on what is not a plain status of this box: help, usage errors, other commands, other boxes', () => {
    for (const argv of [
      ['status', '--help'],
      ['status', '--bogus'],
      ['grant', 'x', 'y'],
      ['status', '--host', 'build-1'],
    ]) {
      const r = node(viaFile, [path.join(dist, STATUS_FILE), ...argv]);
      expect(r.code, argv.join(' ')).toBe(99);
      expect(r.stdout, argv.join(' ')).toBe('');
    }
  });

  it('never offers kept code older than the file', () => {
    const file = path.join(dist, STATUS_FILE);
    const cache = path.join(dist, STATUS_CACHE);
    expect(keptCodeRefused()).toBe(false);
    const made = fs.statSync(file).mtime;
    const later = new Date(fs.statSync(cache).mtimeMs + 60_000);
    try {
      fs.utimesSync(file, later, later);
      // Not offered at all: V8 neither took nor refused it.
      expect(keptCodeRefused()).toBeUndefined();
    } finally {
      fs.utimesSync(file, made, made);
    }
    expect(keptCodeRefused()).toBe(false);
  });

  it('runs the same with a cache V8 refuses, or none', () => {
    const cache = path.join(dist, STATUS_CACHE);
    fs.writeFileSync(cache, Buffer.from('not the code of this file'));
    expect(keptCodeRefused()).toBe(true);
    const refused = node(viaFile, [path.join(dist, STATUS_FILE), ...statusArgs()]);
    fs.rmSync(cache);
    const none = node(viaFile, [path.join(dist, STATUS_FILE), ...statusArgs()]);
    expect(refused.code).toBe(0);
    expect(none.code).toBe(0);
    expect(withoutClock(refused.stdout)).toEqual(withoutClock(none.stdout));
  });

  it('holds nothing of the screen, the validator or the process wrapper, within its budget', () => {
    const code = fs.readFileSync(path.join(dist, STATUS_FILE), 'utf8');
    expect(code).not.toMatch(
      /\/\/ node_modules\/(react|ink|react-reconciler|yoga-layout|zod|execa|chokidar|micromark[^/]*|mdast-util-[^/]*)\//,
    );
    expect(code).toContain('require("./config-schema.cjs")');
    // The handoff Markdown reader is a file of its own, loaded the first time a handoff is read.
    expect(code).toContain('require("./markdown-reader.cjs")');
    expect(Buffer.byteLength(code)).toBeLessThanOrEqual(STATUS_FILE_BUDGET);
  });
});
