// Builds dist/ from scratch (see scripts/bundle.js for what goes in it).
import fs from 'node:fs';
import { bundle } from './bundle.js';

fs.rmSync('dist', { recursive: true, force: true });
await bundle('dist', undefined, { sourcemap: true });
