// The Markdown parser (micromark, mdast and their GFM extensions) is needed only to read a tina
// handoff, yet the readers are synchronous, so it can't be a dynamic import. The bundle carries it as
// a CommonJS file of its own, dist/handoff-parser.cjs, and swaps src/systems/tina/handoff-parser.ts
// for a module that require()s that file on the first handoff: a `tower status` on a box without
// handoffs never reads or compiles it. The single-file reader sent over ssh keeps the static import.
import path from 'node:path';
import { build } from 'esbuild';

/** The CommonJS file the swapped module loads, next to the chunks. */
export const HANDOFF_PARSER_FILE = 'handoff-parser.cjs';

const SWAPPED = [
  "import { createRequire } from 'node:module';",
  'let parse = null;',
  '/** Loads the parser on first use, then parses as handoff.ts does. */',
  'export function parseHandoff(text, file) {',
  `  parse ??= createRequire(import.meta.url)('./${HANDOFF_PARSER_FILE}').parseHandoff;`,
  '  return parse(text, file);',
  '}',
].join('\n');

/** The esbuild plugin that swaps the module. */
export const handoffOnDemand = {
  name: 'handoff-on-demand',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]systems[\\/]tina[\\/]handoff-parser\.ts$/ }, () => ({ contents: SWAPPED, loader: 'js' }));
  },
};

/** Writes `outdir`/handoff-parser.cjs: src/systems/tina/handoff.ts with what it imports. */
export async function bundleHandoffParser(repo, outdir, plugins) {
  return build({
    entryPoints: [path.join(repo, 'src', 'systems', 'tina', 'handoff.ts')],
    outfile: path.join(outdir, HANDOFF_PARSER_FILE),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins,
  });
}
