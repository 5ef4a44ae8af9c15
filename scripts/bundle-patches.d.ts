import type { Plugin } from 'esbuild';

/** Entries a text cache may hold before it starts afresh. */
export const TEXT_CACHE_LIMIT: number;
/** ink/build/measure-text.js with its Map bounded. */
export function boundMeasureText(source: string): string;
/** ink/build/wrap-text.js with its cache object bounded. */
export function boundWrapText(source: string): string;
/** ink/build/output.js with its text caches kept from frame to frame, bounded. */
export function keepOutputCaches(source: string): string;
/** yoga-layout's loader with `typeof fetch` answered without touching the global. */
export function noFetchProbe(source: string): string;
/** The always-narrow text string-width's rewrite measures by length (a RegExp source). */
export const NARROW_TEXT: string;
/** string-width with lazy segmenter and regexes and a fast path for narrow text. */
export function fastStringWidth(source: string): string;
/** The esbuild plugin applying the rewrites. */
export const patchDependencies: Plugin;
export const SINGLE_GRAPHEMES: string;
export function fastTokenize(source: string): string;
export function sameStyleNoDiff(source: string): string;
export const STYLE_CHANGE_LIMIT: number;
