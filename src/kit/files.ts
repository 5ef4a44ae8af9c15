/**
 * The only file writes tower makes. Every one is checked to land inside the run's state directory,
 * never goes through a symlink (a target that is a link is refused; a rename replaces a name, never
 * what a link points at), and is atomic: a reader sees the old file or the whole new one.
 */
import type crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { randomHex } from '../text/random.js';
import { pidAlive } from './process-tree.js';
import { UnsafePathError, assertInsideStateDir } from './safety.js';

const load = createRequire(import.meta.url);
let hostTag: string | null = null;

/**
 * Marks temp files as this machine's, so a dead writer's leftovers are recognised (by pid) and
 * removed. Made on the first write: node's crypto module costs every `tower status` a few ms.
 */
function hostTagOf(): string {
  hostTag ??= (load('node:crypto') as typeof crypto)
    .createHash('sha256')
    .update(os.hostname())
    .digest('hex')
    .slice(0, 8);
  return hostTag;
}

function tempNameFor(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.tower-${hostTagOf()}-${process.pid}-${randomHex(4)}.tmp`,
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes temp files beside `file` left by a tower on this machine that died mid-write (its pid is
 * gone). Also the older `.<name>.<pid>.<hex>.tmp` form.
 */
export async function removeDeadTemps(file: string): Promise<string[]> {
  const dir = path.dirname(file);
  const base = escapeRegExp(path.basename(file));
  const pattern = new RegExp(`^\\.${base}\\.(?:tower-${hostTagOf()}-(\\d+)-|(\\d+)\\.)[0-9a-f]{8}\\.tmp$`);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2]);
    if (pid === process.pid || pidAlive(pid)) continue;
    await fs.promises.rm(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** The file's own lstat, or null when it does not exist. */
async function lstatOrNull(file: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Throws when `file` is a symlink (or anything but a regular file); returns its lstat, or null when absent. */
export async function refuseLink(file: string): Promise<fs.Stats | null> {
  const st = await lstatOrNull(file);
  if (st?.isSymbolicLink()) {
    const to = await fs.promises.readlink(file).catch(() => '?');
    throw new UnsafePathError(
      `refusing to write ${file}: it is a symlink (to ${to}); tower never writes through a link`,
    );
  }
  if (st && !st.isFile()) throw new UnsafePathError(`refusing to write ${file}: it is not a regular file`);
  return st;
}

/** Writes `content` to a new temp file beside `file` (created exclusively, fsynced) and returns its name. */
async function writeTemp(file: string, content: string, mode: number): Promise<string> {
  const temp = tempNameFor(file);
  const handle = await fs.promises.open(temp, 'wx', mode);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  return temp;
}

/**
 * Replaces `file` atomically: a temp file in the same dir, fsynced, then renamed over it, keeping
 * the old file's mode (or taking `mode`, exactly). A target that is a symlink is refused; rename would
 * replace only the link.
 */
export async function writeAtomic(stateDir: string, file: string, content: string, mode?: number): Promise<void> {
  assertInsideStateDir(stateDir, file);
  const st = await refuseLink(file);
  await removeDeadTemps(file);
  const temp = await writeTemp(file, content, mode ?? (st ? st.mode & 0o7777 : 0o666));
  // A mode asked for is the file's exactly (the umask would take bits away: a copy keeps its original's).
  if (mode !== undefined) await fs.promises.chmod(temp, mode);
  try {
    await fs.promises.rename(temp, file);
  } catch (err) {
    await fs.promises.rm(temp, { force: true });
    throw err;
  }
}

/**
 * Creates `file` only if it does not exist, with all its content at once: the content goes to a
 * temp file that is then hard-linked to the name (link fails with EEXIST, like O_EXCL, and never
 * follows a link). Where hard links are not supported it falls back to an O_EXCL open. Returns
 * false when the file existed; a name that is a symlink is refused.
 */
export async function createExclusive(stateDir: string, file: string, content: string): Promise<boolean> {
  assertInsideStateDir(stateDir, file);
  if (await refuseLink(file)) return false;
  await removeDeadTemps(file);
  const temp = await writeTemp(file, content, 0o666);
  try {
    await fs.promises.link(temp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return (await refuseLink(file), false);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw err;
    try {
      // O_EXCL with O_CREAT fails on any existing name, a dangling link included.
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

/** Deletes `file` (a symlink is removed itself, never what it points at); false when it was already gone. */
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
