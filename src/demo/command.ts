import type { AppContext } from '../context.js';

/** `tower demo [--no-ui] [--dir DIR]`. */
export async function demoCommand(_ctx: AppContext, _opts: { ui: boolean; dir?: string | undefined }): Promise<number> {
  throw new Error('not built yet');
}
