/** Process checks for stopping the sandbox: an agent is gone once it exited, reaped or not. */
import { pidAlive } from '../kit/process-tree.js';

/** Waits until none of the processes runs, or the timeout passes. */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (pids.some(pidAlive) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}
