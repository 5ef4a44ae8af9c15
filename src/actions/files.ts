/**
 * The only file writes tower makes. Every one is checked to land inside the run's state directory
 * and is atomic: a reader sees the old file or the whole new one, never half of it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { assertInsideStateDir } from './safety.js';

function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Replaces `file` atomically with write-file-atomic: a temp file in the same dir, fsynced, then
 * renamed over it, keeping the old file's mode and owner.
 */
export async function writeAtomic(stateDir: string, file: string, content: string): Promise<void> {
  assertInsideStateDir(stateDir, file);
  await writeFileAtomic(file, content, { encoding: 'utf8' });
}

/**
 * Creates `file` only if it does not exist, with all its content at once: the content goes to a
 * temp file that is then hard-linked to the name (link fails with EEXIST, like O_EXCL). Where hard
 * links are not supported it falls back to an O_EXCL open. Returns false when the file existed.
 */
export async function createExclusive(stateDir: string, file: string, content: string): Promise<boolean> {
  assertInsideStateDir(stateDir, file);
  const temp = tempNameFor(file);
  await fs.promises.writeFile(temp, content, { flag: 'wx' });
  try {
    await fs.promises.link(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw err;
    try {
      await fs.promises.writeFile(file, content, { flag: 'wx' });
      return true;
    } catch (err2) {
      if ((err2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err2;
    }
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
}

/** Deletes `file`; false when it was already gone. */
export async function deleteFile(stateDir: string, file: string): Promise<boolean> {
  assertInsideStateDir(stateDir, file);
  try {
    await fs.promises.unlink(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Creates `dir` (and parents) inside the state dir, checking again once it exists. */
export async function makeDirInside(stateDir: string, dir: string): Promise<void> {
  assertInsideStateDir(stateDir, path.join(dir, 'x'));
  await fs.promises.mkdir(dir, { recursive: true });
  assertInsideStateDir(stateDir, path.join(dir, 'x'));
}

/** A lock older than this was left by a tower that died mid-grant. */
const STALE_LOCK_MS = 60_000;

/**
 * Runs `fn` holding `lockFile` (created with O_EXCL). Resolves to null when another process holds
 * the lock, so two operators granting at once give one grant and one refusal.
 */
export async function withLock<T>(stateDir: string, lockFile: string, fn: () => Promise<T>): Promise<{ value: T } | null> {
  assertInsideStateDir(stateDir, lockFile);
  const body = `${process.pid} ${new Date().toISOString()}\n`;
  let handle: fs.promises.FileHandle | null = null;
  for (let attempt = 0; attempt < 2 && !handle; attempt++) {
    try {
      handle = await fs.promises.open(lockFile, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = await fs.promises.stat(lockFile).catch(() => null);
      if (attempt > 0 || !st || Date.now() - st.mtimeMs < STALE_LOCK_MS) return null;
      await fs.promises.rm(lockFile, { force: true });
    }
  }
  if (!handle) return null;
  try {
    try {
      await handle.writeFile(body);
    } finally {
      await handle.close();
    }
    return { value: await fn() };
  } finally {
    await fs.promises.rm(lockFile, { force: true });
  }
}
