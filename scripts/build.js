// Builds dist/ from scratch (see scripts/bundle.js for what goes in it).
import fs from 'node:fs';
import { bundle } from './bundle.js';
import { bundleStatusFile, makeStatusCache } from './status-file.js';

fs.rmSync('dist', { recursive: true, force: true });
await bundle('dist', undefined, { sourcemap: true });
// The reader sent over ssh to a box without tower: one file, no chunks (src/remote/ship.ts).
await bundle('dist', { 'tower-reader': 'src/reader-main.ts' }, { splitting: false, minify: true });
// `tower status` as one file, with the code V8 compiles for it kept (scripts/status-file.js).
await bundleStatusFile('dist');
if (!makeStatusCache('dist')) console.warn('build: no compiled code was kept for dist/status.cjs; `tower status` compiles it at each start');
