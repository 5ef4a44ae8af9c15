/**
 * What a test file made and must not leave: temp dirs and tmux servers made through the helpers
 * are recorded here and removed after the file's last test, also when a test failed half-way.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dirs = new Set<string>();
const sockets = new Set<string>();

/** Where tmux keeps `-L` sockets: $TMUX_TMPDIR (default /tmp)/tmux-<uid>/. */
export function tmuxSocketDir(): string {
  return path.join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`);
}

/** Records a `-L` socket name: a server still running on it is stopped after the file, its socket file removed. */
export function closeSocketAfterFile(name: string): string {
  sockets.add(name);
  return name;
}
const servers = new Set<() => Promise<void>>();

/** Removes a folder tree, trying again while a process that was just stopped still writes into it. */
export function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

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
  for (const name of sockets) {
    const file = path.join(tmuxSocketDir(), name);
    if (!fs.existsSync(file)) continue;
    try {
      execFileSync('tmux', ['-L', name, 'kill-server'], { stdio: 'ignore', timeout: 5000 });
    } catch {
      // No server on it any more: only the socket file is left.
    }
    fs.rmSync(file, { force: true });
  }
  sockets.clear();
  for (const d of dirs) removeTree(d);
  dirs.clear();
}
