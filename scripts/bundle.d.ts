import type { BuildOptions, BuildResult } from 'esbuild';

export const ENTRY_POINTS: Record<string, string>;
/** Bundles `entryPoints` (name → path relative to the repo) into `outdir`; resolves to esbuild's result. */
export function bundle(
  outdir: string,
  entryPoints?: Record<string, string>,
  extra?: BuildOptions,
): Promise<BuildResult>;
