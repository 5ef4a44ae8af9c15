/**
 * Where tower may write: only inside a run's state directory, and only when that directory really
 * lies inside the run's project (a state dir that is a symlink out of the project is refused).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Run } from '../model/model.js';

/** Whether `child` is `parent` or lies below it (both already resolved). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The real path of `p`, resolving symlinks of its deepest existing ancestor and appending the
 * parts that do not exist yet (a directory we are about to create).
 */
export function realpathLoose(p: string): string {
  const abs = path.resolve(p);
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return path.join(fs.realpathSync(cur), ...missing.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/** Which directory a state dir is: its device and inode, and whether its own name is a symlink. */
interface DirIdentity {
  dev: number;
  ino: number;
  link: boolean;
}

/** State dirs as they were when an action on them was planned, by absolute path (the newest few). */
const pinned = new Map<string, DirIdentity>();
const MAX_PINNED = 1000;

/** What `dir` is now, looked at through an opened descriptor (the directory itself, not a name that may change). */
function identityOf(dir: string): DirIdentity | null {
  let fd: number | null = null;
  try {
    const link = fs.lstatSync(dir).isSymbolicLink();
    fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    const st = fs.fstatSync(fd);
    return { dev: st.dev, ino: st.ino, link };
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/**
 * Remembers which directory `dir` is when an action is planned: its writes are then refused if the
 * name leads anywhere else by the time they happen (the directory swapped for a link while the
 * confirm dialog was open, say).
 */
export function pinStateDir(dir: string): void {
  const id = identityOf(dir);
  const key = path.resolve(dir);
  pinned.delete(key);
  if (!id) return;
  pinned.set(key, id);
  if (pinned.size > MAX_PINNED) pinned.delete(pinned.keys().next().value!);
}

/** Throws when `stateDir` is no longer the directory it was when it was pinned. */
function assertStillPinned(stateDir: string, file: string): void {
  const then = pinned.get(path.resolve(stateDir));
  if (!then) return;
  const now = identityOf(stateDir);
  if (now && now.dev === then.dev && now.ino === then.ino && now.link === then.link) return;
  const why = !now
    ? 'it is gone'
    : now.link && !then.link
      ? 'it is now a symlink'
      : 'another directory is in its place';
  throw new UnsafePathError(
    `refusing to write ${file}: the state directory ${stateDir} changed since the action was planned (${why})`,
  );
}

/** The run's state dir when tower may write in it, or the reason it may not. */
export function writableStateDir(run: Run): { dir: string } | { refusal: string } {
  if (!run.stateDir) return { refusal: `${run.id} has no state directory to write in` };
  if (!run.root)
    return { refusal: `${run.id} has no project root; tower writes only inside a project's state directory` };
  let realState: string;
  let realRoot: string;
  try {
    realState = fs.realpathSync(run.stateDir);
    realRoot = fs.realpathSync(run.root);
  } catch (err) {
    return {
      refusal:
        `${run.id}: state directory ${run.stateDir} is not readable ` +
        `(${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
  }
  if (!isInside(realRoot, realState)) {
    return {
      refusal: `${run.id}: state directory ${run.stateDir} resolves to ${realState}, outside the project ${realRoot}`,
    };
  }
  pinStateDir(run.stateDir);
  return { dir: run.stateDir };
}

/** Throws unless `file` (which may not exist yet) resolves inside `stateDir`. */
export function assertInsideStateDir(stateDir: string, file: string): void {
  assertStillPinned(stateDir, file);
  const realState = realpathLoose(stateDir);
  const realDir = realpathLoose(path.dirname(file));
  if (!isInside(realState, realDir)) {
    throw new UnsafePathError(
      `refusing to write ${file}: it resolves to ${realDir}, outside the state directory ${realState}`,
    );
  }
}

/** A write that would land outside the run's state directory. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

/** Why tower won't write or create `file`: it is a symlink (dangling or not). Null when it is not one. */
export function linkRefusal(file: string): string | null {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return null;
  } catch {
    return null;
  }
  let to = '?';
  try {
    to = fs.readlinkSync(file);
  } catch {
    // Unreadable link: still refused, shown with "?".
  }
  return `refusing to write ${file}: it is a symlink (to ${to}); tower never writes through a link`;
}

/** What a temp file adds to a name: `.<name>.tower-<host tag>-<pid>-<hex>.tmp` (see files.ts). */
const TEMP_NAME_OVERHEAD = 1 + '.tower-'.length + 8 + 1 + 7 + 1 + 8 + '.tmp'.length;
/** The longest file tower writes for a checkpoint: `checkpoint-<name>.md.granted`. */
const CHECKPOINT_FILE_OVERHEAD = 'checkpoint-'.length + '.md.granted'.length;
/** Most file systems hold names of at most 255 bytes. */
const NAME_MAX = 255;

/**
 * Why `name` can't name a harness checkpoint file beyond its character set: `.` and `..` are
 * directories, and a name whose files (with their temp file) pass 255 bytes can't be created.
 */
export function checkpointNameRefusal(name: string): string | null {
  if (name === '.' || name === '..') return `"${name}" is not a checkpoint name`;
  const most = NAME_MAX - CHECKPOINT_FILE_OVERHEAD - TEMP_NAME_OVERHEAD;
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > most) return `checkpoint name is too long: ${bytes} bytes (at most ${most})`;
  return null;
}
