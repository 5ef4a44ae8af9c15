// The esbuild options of tower's bundle, shared by scripts/build.js and the tests that bundle from source.
// Code splitting keeps the UI (react + ink) in its own chunk, loaded only by the interactive commands,
// so `tower status --json` never parses it. demo-agent is the fake agent the demo runs in its panes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { patchDependencies } from './bundle-patches.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const ENTRY_POINTS = { cli: 'src/cli/cli.ts', 'demo-agent': 'src/demo/agent.ts' };

/** Bundles `entryPoints` (name → path relative to the repo) into `outdir`; resolves to esbuild's result. */
export async function bundle(outdir, entryPoints = ENTRY_POINTS, extra = {}) {
  return build({
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([k, v]) => [k, path.resolve(REPO, v)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"' },
    // CommonJS dependencies call require() and read __filename, which ESM lacks.
    banner: {
      js: [
        "import { createRequire as __towerRequire } from 'node:module';",
        "import { fileURLToPath as __towerFileURLToPath } from 'node:url';",
        "import { dirname as __towerDirname } from 'node:path';",
        'const require = __towerRequire(import.meta.url);',
        'const __filename = __towerFileURLToPath(import.meta.url);',
        'const __dirname = __towerDirname(__filename);',
      ].join(' '),
    },
    external: ['react-devtools-core'],
    ...extra,
    plugins: [patchDependencies, ...(extra.plugins ?? [])],
  });
}
