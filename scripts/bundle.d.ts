import type { BuildOptions } from 'esbuild';

export const ENTRY_POINTS: Record<string, string>;
/** Bundles `entryPoints` (name → path relative to the repo) into `outdir`. */
export function bundle(outdir: string, entryPoints?: Record<string, string>, extra?: BuildOptions): Promise<void>;
