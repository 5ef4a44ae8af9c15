// Bundles the CLI into dist/. Code splitting keeps the UI (react + ink) in its own chunk,
// loaded only by the interactive commands, so `tower status --json` never parses it.
import { build } from 'esbuild';

await build({
  // demo-agent is the fake agent the demo runs in its tmux panes.
  entryPoints: { cli: 'src/cli.ts', 'demo-agent': 'src/demo/agent.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.DEV': '"false"' },
  // Some CommonJS dependencies call require() for node built-ins.
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
});
