import type { AppContext } from '../context.js';

/** `tower`: the interactive control room. Refuses (exit 1) when stdout is not a TTY. */
export async function runControlRoom(_ctx: AppContext): Promise<number> {
  throw new Error('not built yet');
}
