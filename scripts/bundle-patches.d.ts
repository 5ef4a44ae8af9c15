import type { Plugin } from 'esbuild';

/** yoga-layout's loader with `typeof fetch` answered without touching the global. */
export function noFetchProbe(source: string): string;
/** The always-narrow text string-width's rewrite measures by length (a RegExp source). */
export const NARROW_TEXT: string;
/** string-width with lazy segmenter and regexes and a fast path for narrow text. */
export function fastStringWidth(source: string): string;
/** ansi-tokenize's tokenize with its segmenter made on first use. */
export function lazyTokenizeSegmenter(source: string): string;
/** The esbuild plugin applying the rewrites. */
export const patchDependencies: Plugin;
