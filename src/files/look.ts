/**
 * Looking at paths without opening them: whether a file is there, what kind it is, a directory's
 * names. Never throws; what can't be looked at reads as absent or as a problem naming the reason.
 */
import fs from 'node:fs';
import type { Problem } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';

/**
 * Whether the path exists (any kind). A path that can't be looked at (permission denied on its
 * folder) reads as absent here; readers that must not miss it use statFile, which says why.
 */
export function exists(file: string): boolean {
  try {
    // No throw for a missing file: thousands of lookups of files that are usually absent add up.
    return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The modification time in ms, or null when the file is missing. */
export function mtimeMs(file: string): number | null {
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? null;
  } catch {
    return null;
  }
}

/**
 * The names in a directory, sorted; [] when it is missing or unreadable. Given `problems`, a
 * directory that exists but can't be listed is a problem naming it and the reason.
 */
export function listDir(dir: string, problems?: Problem[]): string[] {
  return listing(dir, false, problems).sort();
}

/** A directory's entries with their types, sorted by name; [] when missing or unreadable (as listDir). */
export function listEntries(dir: string, problems: Problem[]): fs.Dirent[] {
  return listing(dir, true, problems).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function listing(dir: string, withFileTypes: false, problems?: Problem[]): string[];
function listing(dir: string, withFileTypes: true, problems?: Problem[]): fs.Dirent[];
function listing(dir: string, withFileTypes: boolean, problems?: Problem[]): string[] | fs.Dirent[] {
  try {
    return withFileTypes ? fs.readdirSync(dir, { withFileTypes: true }) : fs.readdirSync(dir);
  } catch (err) {
    if (problems && (err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(dirProblem(dir, err));
    return [];
  }
}

function dirProblem(dir: string, err: unknown): Problem {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOTDIR' ? 'is not a directory' : describeError(err);
  return { file: sanitizeLine(dir), message: `can't list the directory: ${why}` };
}

/** Why a directory that exists can't be listed, or null when it lists (or is simply missing). */
export function unlistable(dir: string): Problem | null {
  try {
    fs.readdirSync(dir);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : dirProblem(dir, err);
  }
}

/** What a path is when it is not a regular file, in words; null for a regular file. */
export function notAFile(st: fs.Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'not a regular file: it is a directory';
  if (st.isFIFO()) return 'not a regular file: it is a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'not a regular file: it is a character device';
  if (st.isBlockDevice()) return 'not a regular file: it is a block device';
  if (st.isSocket()) return 'not a regular file: it is a socket';
  return 'not a regular file';
}

/** A file looked at without opening it: missing, a regular file, or something else (with the reason). */
export type FileStat =
  { kind: 'missing' } | { kind: 'file'; mtimeMs: number; size: number } | { kind: 'bad'; problem: Problem };

/** Stats a file (following symlinks); never opens it, so a FIFO or a device is never read. */
export function statFile(file: string): FileStat {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
    if (st === undefined) {
      // Missing (or a folder on its path is a file); a symlink whose target is gone is there, and broken.
      return fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()
        ? { kind: 'bad', problem: { file, message: 'is a symlink to a missing file' } }
        : { kind: 'missing' };
    }
  } catch (err) {
    return { kind: 'bad', problem: { file, message: describeError(err) } };
  }
  const not = notAFile(st);
  return not ? { kind: 'bad', problem: { file, message: not } } : { kind: 'file', mtimeMs: st.mtimeMs, size: st.size };
}

/** Whether the path is a directory (following symlinks). */
export function isDir(dir: string): boolean {
  try {
    return fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Why a file operation failed, in words. */
export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return 'file is missing';
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'EISDIR') return 'is a directory, expected a file';
  if (e?.code === 'ELOOP') return 'is a symlink loop (too many levels of symbolic links)';
  if (e?.code === 'ENOTDIR') return 'a folder on its path is not a directory';
  if (e?.code === 'ENXIO' || e?.code === 'ENODEV') return 'is a device with nothing behind it';
  return e?.message ?? String(err);
}

/** Whether a file name holds characters that must never reach the screen (it is skipped, not renamed). */
export function unsafeName(name: string): boolean {
  return sanitizeLine(name) !== name;
}
