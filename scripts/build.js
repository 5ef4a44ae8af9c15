// Builds dist/ from scratch (see scripts/bundle.js for what goes in it).
//
// The start-up devices and what each saves, measured by building without it and timing both builds
// side by side (`node --import tsx test/bench/builds.ts BIN…`, medians of 9-15 interleaved rounds on a
// shared 2-core box, Nov 2026; targets: first frame ≤ 2.5× a bare node printing a line, `tower status
// --json` ≤ 1.3× node reading the same files):
// - the status file with V8's kept code (scripts/status-file.js, bin/status-loader.cjs; Node 20
//   only): `tower status` 17 % faster on the fixture box (352 ms against 423) and 19 % on 10,000 tasks
//   (629 ms against 780); nothing on the first frame. Kept.
// - bin/tower.js as CommonJS (bin/package.json), the full command line imported from it: every
//   start ~6 ms sooner than from an ES module entry (empty box: 108 ms against 114, medians of 41
//   interleaved runs), and `tower status` loads no ES module at all. Kept.
// - the hand-painted first frame (src/ui/first-frame/): the first frame in 597 ms against 1,185 (50 %);
//   nothing on `tower status`. Kept.
// - bundle patches (scripts/bundle-patches.js): yoga's fetch probe fixes a defect and is kept (on the
//   live screen's path, not the first frame's nor `tower status`'s); string-width's lazy tables and
//   narrow fast path save 21-28 % of the first frame (the screen's marks and spinners in that path too: a
//   problem row's ✗ no longer builds the property regexes and a segmenter, the first frame's CPU 126 ms
//   against 169, medians of 8 interleaved runs); ansi-tokenize's segmenter made on first use
//   spares the live screen's start the 27-42 ms of a first Intl.Segmenter for a tokenize it never
//   calls: kept. Removed: ink's bounded measure-text and wrap-text caches and ansi-tokenize's walk by
//   code unit (the screen hands ink no text: 0 calls of each in a minute of the demo with 30 keys).
//   Removed: zod's English-only locales (zod is on neither path: 0; a config file, when there is one,
//   now loads a 770 KB validator instead of 405 KB).
import fs from 'node:fs';
import { bundle } from './bundle.js';
import { bundleStatusFile, makeStatusCache } from './status-file.js';

fs.rmSync('dist', { recursive: true, force: true });
await bundle('dist', undefined, { sourcemap: true });
// The reader sent over ssh to a box without tower: one file, no chunks (src/remote/ship.ts).
await bundle('dist', { 'tower-reader': 'src/cli/reader-main.ts' }, { splitting: false, minify: true });
// `tower status` as one file, with the code V8 compiles for it kept (scripts/status-file.js).
await bundleStatusFile('dist');
if (!makeStatusCache('dist'))
  console.warn('build: no compiled code was kept for dist/status.cjs; `tower status` compiles it at each start');
