/**
 * What a test file made and must not leave: temp dirs and tmux servers made through the helpers
 * are recorded here and removed after the file's last test, also when a test failed half-way.
 */
import fs from 'node:fs';

const dirs = new Set<string>();
const servers = new Set<() => Promise<void>>();

/** Records a temp dir to remove after the file's tests; returns it. */
export function removeAfterFile(dir: string): string {
  dirs.add(dir);
  return dir;
}

/** Records how to stop a tmux server after the file's tests (safe if it was stopped already). */
export function stopAfterFile(kill: () => Promise<void>): void {
  servers.add(kill);
}

/** Stops the recorded servers, then removes the recorded dirs. */
export async function cleanUpLeftovers(): Promise<void> {
  const kills = [...servers];
  servers.clear();
  await Promise.allSettled(kills.map((k) => k()));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs.clear();
}
