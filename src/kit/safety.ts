/**
 * Where tower may write: only inside a run's state directory, and only when that directory really
 * lies inside the run's project (a state dir that is a symlink out of the project is refused).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Run } from '../model.js';

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

/** The run's state dir when tower may write in it, or the reason it may not. */
export function writableStateDir(run: Run): { dir: string } | { refusal: string } {
  if (!run.stateDir) return { refusal: `${run.id} has no state directory to write in` };
  if (!run.root) return { refusal: `${run.id} has no project root; tower writes only inside a project's state directory` };
  let realState: string;
  let realRoot: string;
  try {
    realState = fs.realpathSync(run.stateDir);
    realRoot = fs.realpathSync(run.root);
  } catch (err) {
    return { refusal: `${run.id}: state directory ${run.stateDir} is not readable (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  if (!isInside(realRoot, realState)) {
    return { refusal: `${run.id}: state directory ${run.stateDir} resolves to ${realState}, outside the project ${realRoot}` };
  }
  return { dir: run.stateDir };
}

/** Throws unless `file` (which may not exist yet) resolves inside `stateDir`. */
export function assertInsideStateDir(stateDir: string, file: string): void {
  const realState = realpathLoose(stateDir);
  const realDir = realpathLoose(path.dirname(file));
  if (!isInside(realState, realDir)) {
    throw new UnsafePathError(`refusing to write ${file}: it resolves to ${realDir}, outside the state directory ${realState}`);
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
