import type { AppContext } from '../context.js';

/** `tower status [--json]`: one snapshot of every run, then exit 0 (problems are data, not failures). */
export async function statusCommand(_ctx: AppContext, _opts: { json: boolean }): Promise<number> {
  throw new Error('not built yet');
}
