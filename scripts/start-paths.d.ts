import type { Metafile } from 'esbuild';

export const START_PATHS: Record<string, string[]>;
/** Bytes of JavaScript each start path may load. */
export const START_BUDGETS: Record<string, number>;
/** Packages that must stay off each start path (a name ending in `*` stands for every name it begins). */
export const KEPT_OFF: Record<string, string[]>;
/** The packages of `present` that `keptOff` names (exactly, or by a prefix ending in `*`). */
export function offenders(keptOff: string[], present: Iterable<string>): string[];
export interface StartPath {
  bytes: number;
  files: string[];
  /** Input (source or node_modules path) → bytes it adds. */
  inputs: Map<string, number>;
}
/** For each start path: the output files it loads and their total bytes. */
export function startPaths(metafile: Metafile, paths?: Record<string, string[]>): Record<string, StartPath>;
/** Bytes by package (node_modules/<pkg>) or `src`, biggest first. */
export function byPackage(inputs: Map<string, number>): [string, number][];
export const STATUS_FILE_BUDGET: number;
