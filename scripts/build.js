// Builds dist/ from scratch (see scripts/bundle.js for what goes in it).
import fs from 'node:fs';
import { bundle } from './bundle.js';

fs.rmSync('dist', { recursive: true, force: true });
await bundle('dist', undefined, { sourcemap: true });
// The reader sent over ssh to a box without tower: one file, no chunks (src/remote/ship.ts).
await bundle('dist', { 'tower-reader': 'src/remote/reader-main.ts' }, { splitting: false, minify: true });
