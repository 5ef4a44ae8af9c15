// Build-time rewrites of a few dependency modules, applied while bundling (node_modules stay as installed).
// - ink's measure-text and wrap-text keep a module-level cache of every text ever measured or wrapped,
//   never cleared: a screen of text that keeps changing (live pane output, ages, progress) grows it
//   without end. The rewrite starts the cache afresh once it holds TEXT_CACHE_LIMIT entries.
// - yoga-layout's wasm loader asks `typeof fetch`, which makes Node load its whole fetch implementation
//   (~25 ms of start-up) although the wasm is inlined as base64: the rewrite answers "undefined".
// Each rewrite fails the build when its target code is not found, so a dependency update that moves
// the code is noticed rather than silently unpatched.
import fs from 'node:fs';

/** Entries a text cache may hold before it starts afresh (a full screen is a few hundred texts). */
export const TEXT_CACHE_LIMIT = 4000;

function replaceOnce(source, from, to, what) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + from.length) >= 0) throw new Error(`${what}: expected exactly one ${JSON.stringify(from)}`);
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/** ink/build/measure-text.js with its Map bounded. */
export function boundMeasureText(source) {
  return replaceOnce(
    source,
    'cache.set(text, dimensions);',
    `if (cache.size >= ${TEXT_CACHE_LIMIT}) cache.clear(); cache.set(text, dimensions);`,
    'ink measure-text',
  );
}

/** ink/build/wrap-text.js with its cache object bounded. */
export function boundWrapText(source) {
  const declared = replaceOnce(source, 'const cache = {};', 'let cache = {}; let cacheSize = 0;', 'ink wrap-text');
  return replaceOnce(
    declared,
    'cache[cacheKey] = wrappedText;',
    `if (cacheSize >= ${TEXT_CACHE_LIMIT}) { cache = {}; cacheSize = 0; } cacheSize++; cache[cacheKey] = wrappedText;`,
    'ink wrap-text',
  );
}

/** yoga-layout's loader with `typeof fetch` answered without touching the global. */
export function noFetchProbe(source) {
  const probes = source.match(/typeof fetch\b/g)?.length ?? 0;
  if (probes === 0) throw new Error('yoga-layout: expected a `typeof fetch` probe');
  return source.replace(/typeof fetch\b/g, '"undefined"');
}

const PATCHES = [
  { filter: /[\\/]ink[\\/]build[\\/]measure-text\.js$/, rewrite: boundMeasureText },
  { filter: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/, rewrite: boundWrapText },
  { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/][^\\/]+\.js$/, rewrite: noFetchProbe },
];

/** The esbuild plugin applying the rewrites above. */
export const patchDependencies = {
  name: 'tower-patch-dependencies',
  setup(build) {
    for (const { filter, rewrite } of PATCHES) {
      build.onLoad({ filter }, async (args) => ({ contents: rewrite(await fs.promises.readFile(args.path, 'utf8')), loader: 'js' }));
    }
  },
};
