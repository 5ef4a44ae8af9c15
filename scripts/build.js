// Builds dist/ (see scripts/bundle.js for what goes in it).
import { bundle } from './bundle.js';

await bundle('dist', undefined, { sourcemap: true });
