/**
 * The grant lock: a file created exclusively that records its owner (pid, host, time). A lock whose
 * owner is gone (this host, pid no longer running) is taken over at once, so a tower killed with
 * SIGKILL mid-grant does not block the next grant.
 */
import fs from 'node:fs';
import os from 'node:os';
import { createExclusive, refuseLink } from './files.js';
import { pidAlive } from './process-tree.js';
import { assertInsideStateDir } from './safety.js';

/** A lock whose owner can't be checked (another host, an older format) is stale after this long. */
const STALE_LOCK_MS = 60_000;

/** Who holds a lock. */
export interface LockOwner {
  pid: number;
  host: string;
  at: string;
}

/** The owner a lock file names: JSON `{pid, host, at}`, or the older `<pid> <ISO>` line (host unknown). */
export function parseLockOwner(text: string): LockOwner | null {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid === 'number' && typeof v.host === 'string')
      return { pid: v.pid, host: v.host, at: String(v.at ?? '') };
  } catch {
    // Not JSON: the older one-line form below.
  }
  const m = /^(\d+)\s+(\S+)/.exec(text);
  return m ? { pid: Number(m[1]), host: '', at: m[2] ?? '' } : null;
}

function ownerBody(): string {
  return `${JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() })}\n`;
}

/** Whether the lock's owner is certainly gone: same host and pid not running, or too old to be a live grant. */
function ownerGone(text: string, mtimeMs: number): boolean {
  const owner = parseLockOwner(text);
  if (owner && owner.host === os.hostname() && owner.pid !== process.pid) return !pidAlive(owner.pid);
  return Date.now() - mtimeMs >= STALE_LOCK_MS;
}

async function readLock(file: string): Promise<{ text: string; mtimeMs: number } | null> {
  await refuseLink(file);
  try {
    const [text, st] = await Promise.all([fs.promises.readFile(file, 'utf8'), fs.promises.stat(file)]);
    return { text, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Removes a stale lock, but only the one that was judged stale: a takeover guard (itself a lock)
 * makes "check the content, then unlink" one step among towers racing for the same dead lock.
 */
async function takeOver(stateDir: string, lockFile: string, staleText: string): Promise<void> {
  const guard = `${lockFile}.takeover`;
  if (!(await createExclusive(stateDir, guard, ownerBody()))) {
    const g = await readLock(guard);
    if (g && ownerGone(g.text, g.mtimeMs)) await fs.promises.rm(guard, { force: true });
    return;
  }
  try {
    const now = await readLock(lockFile);
    if (now && now.text === staleText) await fs.promises.unlink(lockFile);
  } finally {
    await fs.promises.rm(guard, { force: true });
  }
}

/**
 * Runs `fn` holding `lockFile`. Resolves to null when a live process holds the lock, so two
 * operators granting at once give one grant and one refusal.
 */
export async function withLock<T>(
  stateDir: string,
  lockFile: string,
  fn: () => Promise<T>,
): Promise<{ value: T } | null> {
  assertInsideStateDir(stateDir, lockFile);
  const body = ownerBody();
  let held = false;
  for (let attempt = 0; attempt < 4 && !held; attempt++) {
    held = await createExclusive(stateDir, lockFile, body);
    if (held) break;
    const lock = await readLock(lockFile);
    if (lock && !ownerGone(lock.text, lock.mtimeMs)) return null;
    if (lock) await takeOver(stateDir, lockFile, lock.text);
  }
  if (!held) return null;
  try {
    return { value: await fn() };
  } finally {
    const mine = await readLock(lockFile).catch(() => null);
    if (mine?.text === body) await fs.promises.rm(lockFile, { force: true });
  }
}
