import type { BuildResult, Plugin } from 'esbuild';

/** The CommonJS file holding the Markdown parser, next to the chunks. */
export const HANDOFF_PARSER_FILE: string;
/** The esbuild plugin that makes the bundle load the parser on the first handoff. */
export const handoffOnDemand: Plugin;
export function bundleHandoffParser(repo: string, outdir: string, plugins: Plugin[]): Promise<BuildResult>;
