/** Process checks for stopping the sandbox: an agent is gone once it exited, reaped or not. */
import fs from 'node:fs';

/** Whether a process still runs (an exited one waiting to be reaped by init does not). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: `<pid> (<comm>) <state> ...`; Z is a zombie.
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (err) {
    // Gone since the kill check, or no /proc (macOS): trust what kill said.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Waits until none of the processes runs, or the timeout passes. */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (pids.some(isRunning) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}
