import type { BuildOptions, BuildResult } from 'esbuild';

export const STATUS_FILE: string;
export const STATUS_CACHE: string;
export const CONFIG_SCHEMA_FILE: string;
export const MARKDOWN_READER_FILE: string;
/** Writes `outdir`/status.cjs, `outdir`/config-schema.cjs and `outdir`/markdown-reader.cjs. */
export function bundleStatusFile(outdir: string, extra?: BuildOptions): Promise<BuildResult>;
/** Runs the status file once on the fixture box and keeps the compiled code; whether it was written. */
export function makeStatusCache(outdir: string): boolean;
