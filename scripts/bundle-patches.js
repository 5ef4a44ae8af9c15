// Build-time rewrites of a few dependency modules, applied while bundling (node_modules stay as installed).
// What each saves was measured by building without it (scripts/build.js lists the figures; Nov 2026).
// - ink's measure-text and wrap-text keep a module-level cache of every text ever measured or wrapped,
//   never cleared: a screen of text that keeps changing (live pane output, ages, progress) grows it
//   without end. The rewrite starts the cache afresh once it holds TEXT_CACHE_LIMIT entries. A defect
//   fix: ink is on neither the first frame's path nor `tower status`'s.
// - yoga-layout's wasm loader asks `typeof fetch`, which makes Node load its whole fetch implementation
//   (~25 ms of start-up) although the wasm is inlined as base64: the rewrite answers "undefined". A
//   defect fix (a global the layout engine has no business touching), on the live screen's path only.
// - string-width builds an Intl.Segmenter and three Unicode-property regular expressions when it is
//   imported (~15 ms), and measures every non-ASCII line grapheme by grapheme (~40 µs a line of box
//   drawing): the screen is made of such lines. The rewrite builds them on first use, and measures text
//   of printable ASCII plus a few always-narrow ranges (box drawing, block elements, arrows, maths operators, dashes,
//   quotes, the ellipsis and the middle dot) by its length, as its own ASCII fast path does.
//   Saves 21-28 % of the first frame (without it 825 ms against 597, 1,512 against 1,200); nothing of
//   `tower status`, which does not load it.
// - @alcalzone/ansi-tokenize (loaded with ink) builds an Intl.Segmenter when it is imported (~25 ms,
//   on the way to the live screen) and walks every line grapheme by grapheme through it. The rewrite
//   builds it on first use and walks text made only of characters that are each a grapheme of their
//   own (the narrow ranges above, and ESC) one code unit at a time. Nothing of `tower status`.
// Each rewrite fails the build when its target code is not found, so a dependency update that moves
// the code is noticed rather than silently unpatched.
import fs from 'node:fs';

/** Entries a text cache may hold before it starts afresh (a full screen is a few hundred texts). */
export const TEXT_CACHE_LIMIT = 4000;

function replaceOnce(source, from, to, what) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + from.length) >= 0)
    throw new Error(`${what}: expected exactly one ${JSON.stringify(from)}`);
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

/** Characters one cell wide under string-width's default (ambiguous is narrow), never part of a wider cluster. */
export const NARROW_TEXT = '^[\\u0020-\\u007E\\u00B7\\u2010-\\u2027\\u2190-\\u2193\\u2200-\\u22FF\\u2500-\\u259F]*$';

const LAZY_REGEXP = `function lazyRegExp(make) {
  let made;
  const get = () => (made ??= make());
  return { test: (s) => get().test(s), [Symbol.search]: (s) => get()[Symbol.search](s), [Symbol.match]: (s) => get()[Symbol.match](s) };
}
`;

/** string-width with its segmenter and property regexes made on first use, and a fast path for narrow text. */
export function fastStringWidth(source) {
  let out = replaceOnce(
    source,
    'const segmenter = new Intl.Segmenter();',
    `${LAZY_REGEXP}let segmenterMade;\nconst segmenter = { segment: (text) => (segmenterMade ??= new Intl.Segmenter()).segment(text) };\nconst narrowText = new RegExp(${JSON.stringify(NARROW_TEXT)});`,
    'string-width',
  );
  for (const name of ['visibleCharacterRegex', 'spacingMarkRegex', 'rgiEmojiRegex', 'extendedPictographicRegex']) {
    const m = new RegExp(`const ${name} = (/.*/[a-z]*);`).exec(out);
    if (!m) throw new Error(`string-width: expected the regular expression ${name}`);
    out = replaceOnce(out, m[0], `const ${name} = lazyRegExp(() => ${m[1]});`, 'string-width');
  }
  return replaceOnce(
    out,
    '\tif (/^[\\u0020-\\u007E]*$/.test(string)) {',
    '\tif (/^[\\u0020-\\u007E]*$/.test(string) || (ambiguousIsNarrow && narrowText.test(string))) {',
    'string-width',
  );
}

/**
 * Characters each of which is a grapheme cluster on its own (no combining mark, joiner, CR or
 * surrogate among them): what ansi-tokenize may walk one code unit at a time.
 */
export const SINGLE_GRAPHEMES =
  '^[\\u001B\\u0020-\\u007E\\u00B7\\u2010-\\u2027\\u2190-\\u2193\\u2200-\\u22FF\\u2500-\\u259F]*$';

/** ansi-tokenize's tokenize with its segmenter made on first use and a walk by code unit where that is the same. */
export function fastTokenize(source) {
  const lazy = replaceOnce(
    source,
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    `let segmenterMade;
const singleGraphemes = new RegExp(${JSON.stringify(SINGLE_GRAPHEMES)});
function graphemesOf(str) {
    if (!singleGraphemes.test(str)) return (segmenterMade ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(str);
    const units = [];
    for (let index = 0; index < str.length; index++) units.push({ segment: str[index], index });
    return units;
}`,
    'ansi-tokenize tokenize',
  );
  return replaceOnce(
    lazy,
    'for (const { segment, index } of segmenter.segment(str)) {',
    'for (const { segment, index } of graphemesOf(str)) {',
    'ansi-tokenize tokenize',
  );
}

const PATCHES = [
  // The hoisted copy only (ink and tower use it); an older copy nested under another package is left alone.
  { filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/, rewrite: fastStringWidth, hoistedOnly: true },
  { filter: /[\\/]ink[\\/]build[\\/]measure-text\.js$/, rewrite: boundMeasureText },
  { filter: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/, rewrite: boundWrapText },
  { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/][^\\/]+\.js$/, rewrite: noFetchProbe },
  { filter: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, rewrite: fastTokenize },
];

/** The esbuild plugin applying the rewrites above. */
export const patchDependencies = {
  name: 'tower-patch-dependencies',
  setup(build) {
    for (const { filter, rewrite, hoistedOnly } of PATCHES) {
      build.onLoad({ filter }, async (args) => {
        if (hoistedOnly && args.path.split(/[\\/]node_modules[\\/]/).length > 2) return undefined;
        return { contents: rewrite(await fs.promises.readFile(args.path, 'utf8')), loader: 'js' };
      });
    }
  },
};
