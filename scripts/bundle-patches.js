// Build-time rewrites of a few dependency modules, applied while bundling (node_modules stay as installed).
// Each is on a path tower runs; what it saves is written beside it (scripts/build.js has the first-frame
// figures; Nov 2026). The screen renders no ink <Text>, so ink's text measuring and wrapping, and
// ansi-tokenize's walk of the text ink writes, never run: a demo session of a minute with 30 keys
// calls measure-text 0 times, wrap-text 0, ansi-tokenize's tokenize 0, and string-width 7,952 times.
// Nothing is patched there any more.
// - yoga-layout's wasm loader asks `typeof fetch`, which makes Node load its whole fetch implementation
//   (~25 ms of start-up) although the wasm is inlined as base64: the rewrite answers "undefined". A
//   defect fix (a global the layout engine has no business touching), on the live screen's path only.
// - string-width builds an Intl.Segmenter and three Unicode-property regular expressions when it is
//   imported (~15 ms), and measures every non-ASCII line grapheme by grapheme (~40 µs a line of box
//   drawing): the screen is made of such lines. The rewrite builds them on first use, and measures text
//   of printable ASCII plus a few always-narrow ranges (box drawing, block elements, arrows, maths operators, dashes,
//   quotes, the ellipsis and the middle dot, geometric shapes, the marks and spinners the screen draws) by its
//   length, as its own ASCII fast path does. A first frame with a problem row (`✗`) built the property regexes
//   and a segmenter, ~50 ms, until ✗ and its kin were in the set.
//   Saves 21-28 % of the first frame (without it 825 ms against 597, 1,512 against 1,200); nothing of
//   `tower status`, which does not load it.
// - @alcalzone/ansi-tokenize (loaded with ink) builds an Intl.Segmenter when it is imported, on the way
//   to the live screen, for a tokenize the screen never calls. The first Intl.Segmenter of a process
//   costs 27-42 ms (Node 20, ICU's break data loaded; five runs), any later one 0.02 ms. The rewrite
//   builds it on first use. Nothing of `tower status`.
// Each rewrite fails the build when its target code is not found, so a dependency update that moves
// the code is noticed rather than silently unpatched.
import fs from 'node:fs';

function replaceOnce(source, from, to, what) {
  const at = source.indexOf(from);
  if (at < 0 || source.indexOf(from, at + from.length) >= 0)
    throw new Error(`${what}: expected exactly one ${JSON.stringify(from)}`);
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/** yoga-layout's loader with `typeof fetch` answered without touching the global. */
export function noFetchProbe(source) {
  const probes = source.match(/typeof fetch\b/g)?.length ?? 0;
  if (probes === 0) throw new Error('yoga-layout: expected a `typeof fetch` probe');
  return source.replace(/typeof fetch\b/g, '"undefined"');
}

/** Characters one cell wide under string-width's default (ambiguous is narrow), never part of a wider cluster. */
export const NARROW_TEXT =
  '^[\\u0020-\\u007E\\u00B7\\u00D7\\u2010-\\u2027\\u203A\\u2190-\\u21FF\\u2200-\\u22FF\\u23BF\\u23F8\\u2500-\\u25FC\\u2605\\u26A0\\u2713-\\u2717\\u2722-\\u2727\\u2729-\\u273D\\u276F\\u27E8\\u27E9\\u2800-\\u28FF\\u2B1D]*$';

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

/** ansi-tokenize's tokenize with its segmenter made on first use. */
export function lazyTokenizeSegmenter(source) {
  const lazy = replaceOnce(
    source,
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    `let segmenterMade;
const segmenter = { segment: (text) => (segmenterMade ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(text) };`,
    'ansi-tokenize tokenize',
  );
  // The segmenter is used by its segment() alone (else the stand-in above would not do).
  if (/segmenter\.(?!segment\()/.test(lazy.replace(/segmenterMade/g, '')))
    throw new Error('ansi-tokenize tokenize: the segmenter is used by more than segment()');
  return lazy;
}

const PATCHES = [
  // The hoisted copy only (ink and tower use it); an older copy nested under another package is left alone.
  { filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/, rewrite: fastStringWidth, hoistedOnly: true },
  { filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/][^\\/]+\.js$/, rewrite: noFetchProbe },
  { filter: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, rewrite: lazyTokenizeSegmenter },
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
