import type { AppContext } from '../context.js';

/** `tower grant <run> <gate> [--json]`. */
export async function grantCommand(_ctx: AppContext, _run: string, _gate: string, _opts: { json: boolean }): Promise<number> {
  throw new Error('not built yet');
}
/** `tower request <run> <name> [--message TEXT]`. */
export async function requestCommand(_ctx: AppContext, _run: string, _name: string, _opts: { message?: string | undefined }): Promise<number> {
  throw new Error('not built yet');
}
/** `tower checkpoint <run> [--timeout S]`: 0 when the handoff is written, 3 on timeout. */
export async function checkpointCommand(_ctx: AppContext, _run: string, _opts: { timeoutSec?: number | undefined }): Promise<number> {
  throw new Error('not built yet');
}
/** `tower rehydrate <run>`. */
export async function rehydrateCommand(_ctx: AppContext, _run: string): Promise<number> {
  throw new Error('not built yet');
}
/** `tower terminate <run> [--member NAME]...`. */
export async function terminateCommand(_ctx: AppContext, _run: string, _opts: { members: string[] }): Promise<number> {
  throw new Error('not built yet');
}
