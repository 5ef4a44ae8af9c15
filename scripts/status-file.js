// `tower status` as one CommonJS file, dist/status.cjs (src/cli/status-main.ts), and the code V8 compiled
// for it, dist/status.cjs.cache. Node 20 keeps no compiled code between runs and loads an ES module
// graph file by file; bin/tower.js runs this one file through vm.Script with the kept code instead,
// which starts `tower status` about twice as close to a bare node as the chunks do. The cache is
// made here by running the file once on the fixture box, so the functions a read compiles are in it;
// V8 refuses it on another Node or other flags, and the file then compiles as usual.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { patchDependencies } from './bundle-patches.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const STATUS_FILE = 'status.cjs';
export const STATUS_CACHE = 'status.cjs.cache';

/**
 * What the status file never reaches, left out of it: other boxes (status-main hands those to the
 * full command line), the process wrapper (hooks and attach), the screen, zod (loaded only when
 * a harness operator answers; from node_modules then), and the run of a harness's checkpoint
 * request (`tower status` runs no action).
 */
const LEFT_OUT = /(?:^execa$|^zod$|[\\/]remote[\\/]boxes\.js$|[\\/]ui[\\/]main\.js$|[\\/]request-run\.js$)/;

/**
 * The config validator (zod, ~380 KB) is a file of its own, dist/config-schema.cjs, loaded only when
 * a config file exists; its answers are plain data, so nothing of it is shared by identity.
 */
export const CONFIG_SCHEMA_FILE = 'config-schema.cjs';

/**
 * The handoff Markdown reader (micromark with GitHub's extensions, ~240 KB) is a file of its own too,
 * dist/markdown-reader.cjs, loaded the first time a handoff's content is read.
 */
export const MARKDOWN_READER_FILE = 'markdown-reader.cjs';
/**
 * The agent CLI modules (telling a pane's CLI, each CLI's screen and typing) are a file of their
 * own, dist/agents.cjs, loaded the first time a pane is captured.
 */
export const AGENTS_FILE = 'agents.cjs';

const leaveOut = {
  name: 'status-file-leave-out',
  setup(b) {
    b.onResolve({ filter: LEFT_OUT }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
    b.onResolve({ filter: /[\\/]config-schema\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: `./${CONFIG_SCHEMA_FILE}`, external: true } : undefined,
    );
    b.onResolve({ filter: /[\\/]markdown-reader\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: `./${MARKDOWN_READER_FILE}`, external: true } : undefined,
    );
    b.onResolve({ filter: /[\\/]agents[\\/]pane-process\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: `./${AGENTS_FILE}`, external: true } : undefined,
    );
  },
};

/** The options both CommonJS files share. */
const COMMON_JS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};

/** Writes `outdir`/status.cjs, `outdir`/config-schema.cjs, `outdir`/markdown-reader.cjs and `outdir`/agents.cjs. */
export async function bundleStatusFile(outdir, extra = {}) {
  await build({
    ...COMMON_JS,
    entryPoints: [path.join(REPO, 'src', 'agents', 'pane-process.ts')],
    outfile: path.join(outdir, AGENTS_FILE),
    ...extra,
  });
  await build({
    ...COMMON_JS,
    entryPoints: [path.join(REPO, 'src', 'systems', 'tina', 'markdown-reader.ts')],
    outfile: path.join(outdir, MARKDOWN_READER_FILE),
    ...extra,
  });
  await build({
    ...COMMON_JS,
    entryPoints: [path.join(REPO, 'src', 'config', 'config-schema.ts')],
    outfile: path.join(outdir, CONFIG_SCHEMA_FILE),
    define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"' },
    ...extra,
    plugins: [patchDependencies],
  });
  const result = await build({
    ...COMMON_JS,
    entryPoints: [path.join(REPO, 'src', 'cli', 'status-main.ts')],
    outfile: path.join(outdir, STATUS_FILE),
    // import() of what the file holds becomes a plain call: vm.Script code has no module loader.
    supported: { 'dynamic-import': false },
    define: {
      'process.env.DEV': '"false"',
      'process.env.NODE_ENV': '"production"',
      'import.meta.url': '__towerImportMetaUrl',
    },
    banner: { js: "const __towerImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    external: ['react-devtools-core'],
    ...extra,
    plugins: [patchDependencies, leaveOut],
  });
  keepInteropWrappers(path.join(outdir, STATUS_FILE));
  return result;
}

/** esbuild's wrapper of a CommonJS module for an ES import, as it writes it at the top of the file. */
const TO_ESM = 'var __toESM = (mod, isNodeMode, target) => (';

/**
 * Makes esbuild's `__toESM` give every importer of a module the same wrapper: each of the ~60
 * `import fs from 'node:fs'` (16 of node:fs, 28 of node:path) otherwise copies the whole module's
 * properties as getters, ~10 ms of each `tower status` start (of ~22 ms running the file's top
 * level, Nov 2026). A wrapper only reads through to its module, so sharing one is what ES modules do.
 */
function keepInteropWrappers(file) {
  const code = fs.readFileSync(file, 'utf8');
  const at = code.indexOf(TO_ESM);
  if (at < 0)
    throw new Error(`${file}: esbuild's __toESM helper not found; scripts/status-file.js must learn its new shape`);
  const kept = [
    'var __toESMKept = [new WeakMap(), new WeakMap()];',
    'var __toESM = (mod, isNodeMode) => {',
    '  if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return __toESMEach(mod, isNodeMode);',
    '  const kept = __toESMKept[isNodeMode ? 1 : 0];',
    '  let wrapper = kept.get(mod);',
    '  if (wrapper === undefined) kept.set(mod, (wrapper = __toESMEach(mod, isNodeMode)));',
    '  return wrapper;',
    '};',
    '',
  ].join('\n');
  fs.writeFileSync(
    file,
    `${code.slice(0, at)}${kept}var __toESMEach = (mod, isNodeMode, target) => (${code.slice(at + TO_ESM.length)}`,
  );
}

/**
 * Runs the status file once on the fixture box (a private tmux socket name: no server, nothing
 * touched) and keeps the code it compiled (scripts/keep-status-code.cjs). Returns whether the cache
 * was written.
 */
export function makeStatusCache(outdir) {
  const box = path.join(REPO, 'test', 'fixtures', 'box');
  const projects = path.join(box, 'projects');
  const roots = fs.existsSync(projects) ? fs.readdirSync(projects).map((p) => path.join(projects, p)) : [];
  const args = [
    'status',
    '--json',
    '--claude-dir',
    path.join(box, 'claude'),
    '-L',
    `tower-build-${process.pid}`,
    ...roots.flatMap((r) => ['--root', r]),
  ];
  spawnSync(
    process.execPath,
    [path.join(REPO, 'scripts', 'keep-status-code.cjs'), path.join(outdir, STATUS_FILE), ...args],
    {
      stdio: 'ignore',
      // No config file is read: the defaults, as on most machines.
      env: { ...process.env, XDG_CONFIG_HOME: path.join(outdir, 'no-config') },
      timeout: 60_000,
    },
  );
  return fs.existsSync(path.join(outdir, STATUS_CACHE));
}
