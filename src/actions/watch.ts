import type { AppContext } from '../context.js';

/** `tower watch [--auto-checkpoint]`: one JSON line per event until SIGINT/SIGTERM. */
export async function watchCommand(_ctx: AppContext, _opts: { autoCheckpoint: boolean }): Promise<number> {
  throw new Error('not built yet');
}
