/**
 * Reading untrusted state files: every read returns a value or a problem, never throws.
 * Sources use these so that a missing, empty, truncated, binary or huge file reads the same way everywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from '../model.js';
import { sanitizeLine } from '../text.js';

/** Files above this size are refused rather than parsed (a state file is a few kB). */
export const MAX_STATE_FILE_BYTES = 4 * 1024 * 1024;

export type Read<T> = { ok: true; value: T } | { ok: false; problem: Problem };

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
function listEntries(dir: string, problems: Problem[]): fs.Dirent[] {
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
  const why = code === 'ENOTDIR' ? 'is not a directory' : describe(err);
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
export type FileStat = { kind: 'missing' } | { kind: 'file'; mtimeMs: number; size: number } | { kind: 'bad'; problem: Problem };

/** Stats a file (following symlinks); never opens it, so a FIFO or a device is never read. */
export function statFile(file: string): FileStat {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
    if (st === undefined) {
      // Missing (or a folder on its path is a file); a symlink whose target is gone is there, and broken.
      return fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ? { kind: 'bad', problem: { file, message: 'is a symlink to a missing file' } } : { kind: 'missing' };
    }
  } catch (err) {
    return { kind: 'bad', problem: { file, message: describe(err) } };
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

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return 'file is missing';
  if (e?.code === 'EACCES' || e?.code === 'EPERM') return 'permission denied';
  if (e?.code === 'EISDIR') return 'is a directory, expected a file';
  if (e?.code === 'ELOOP') return 'is a symlink loop (too many levels of symbolic links)';
  if (e?.code === 'ENOTDIR') return 'a folder on its path is not a directory';
  if (e?.code === 'ENXIO' || e?.code === 'ENODEV') return 'is a device with nothing behind it';
  return e?.message ?? String(err);
}

/** Reads a text file of at most MAX_STATE_FILE_BYTES; binary content (NUL bytes) is a problem. */
export function readText(file: string, maxBytes = MAX_STATE_FILE_BYTES): Read<string> {
  // One open and an fstat on the descriptor: a machine holds thousands of task files, and a path
  // lookup per stat shows in `tower status` time.
  let fd: number | null = null;
  try {
    // O_NONBLOCK: opening a FIFO never waits for a writer; O_NOCTTY: a terminal device never becomes ours.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
    const st = fs.fstatSync(fd);
    const not = notAFile(st);
    if (not) return { ok: false, problem: { file, message: not } };
    if (st.size > maxBytes) {
      return { ok: false, problem: { file, message: `file is too large (${st.size} bytes, limit ${maxBytes})` } };
    }
    const buf = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < st.size) {
      const n = fs.readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    const bytes = buf.subarray(0, read);
    if (bytes.includes(0)) return { ok: false, problem: { file, message: 'file is binary, expected text' } };
    return { ok: true, value: bytes.toString('utf8') };
  } catch (err) {
    return { ok: false, problem: { file, message: describe(err) } };
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Reads and parses a JSON file; empty, truncated or non-JSON content is a problem naming the file. */
export function readJson(file: string, maxBytes = MAX_STATE_FILE_BYTES): Read<unknown> {
  const text = readText(file, maxBytes);
  if (!text.ok) return text;
  return parseJson(file, text.value);
}

/** The buffer every listed regular file is read into; grows up to MAX_STATE_FILE_BYTES + 1. */
let listedBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads a file that its directory listing called regular, without a stat: a machine holds thousands
 * of task files, and the stat's object per file shows in `tower status` time. The open refuses a
 * link (O_NOFOLLOW: a link put there since the listing goes through readText, which says what it
 * points at) and never waits (O_NONBLOCK); at most MAX_STATE_FILE_BYTES + 1 bytes are ever read, so
 * a file swapped for a pipe or grown huge since the listing costs no more than a file at the limit.
 */
function readListedText(file: string): string | Problem {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return textOrProblem(readText(file));
    return { file, message: describe(err) };
  }
  try {
    let read = 0;
    for (;;) {
      if (read === listedBuffer.length) {
        if (read > MAX_STATE_FILE_BYTES) {
          listedBuffer = Buffer.allocUnsafe(64 * 1024);
          return { file, message: `file is too large (${fs.fstatSync(fd).size} bytes, limit ${MAX_STATE_FILE_BYTES})` };
        }
        const bigger = Buffer.allocUnsafe(Math.min(listedBuffer.length * 4, MAX_STATE_FILE_BYTES + 1));
        listedBuffer.copy(bigger, 0, 0, read);
        listedBuffer = bigger;
      }
      const n = fs.readSync(fd, listedBuffer, read, listedBuffer.length - read, null);
      read += n;
      // A regular file gives less than asked only at its end: no second read to see 0 bytes.
      if (read < listedBuffer.length) break;
    }
    const text = listedBuffer.toString('utf8', 0, read);
    if (listedBuffer.length > 64 * 1024) listedBuffer = Buffer.allocUnsafe(64 * 1024);
    return text.includes('\0') ? { file, message: 'file is binary, expected text' } : text;
  } catch (err) {
    return { file, message: describe(err) };
  } finally {
    fs.closeSync(fd);
  }
}

function textOrProblem(read: Read<string>): string | Problem {
  return read.ok ? read.value : read.problem;
}

/** Parses JSON text read from `file`. */
export function parseJson(file: string, text: string): Read<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, problem: jsonProblem(file, text, err) };
  }
}

/** Why `text` of `file` is not JSON: empty, or what JSON.parse said (worked out only once it failed). */
function jsonProblem(file: string, text: string, err: unknown): Problem {
  if (text.trim() === '') return { file, message: 'file is empty' };
  const msg = err instanceof Error ? err.message : String(err);
  return { file, message: `invalid JSON (half-written?): ${sanitizeLine(msg).slice(0, 120)}` };
}

/** Reads a JSON object (not an array or scalar). */
export function readJsonObject(file: string): Read<Record<string, unknown>> {
  const r = readJson(file);
  if (!r.ok) return r;
  if (!isObject(r.value)) return { ok: false, problem: { file, message: 'expected a JSON object' } };
  return { ok: true, value: r.value };
}

/** A plain object check for untyped JSON. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A timestamp as ISO: accepts ISO-8601 strings and epoch milliseconds (or seconds, when small).
 * Returns null when the value is absent or unparseable (callers keep the raw value for display).
 */
export function toIso(v: unknown): string | null {
  const ms = toMs(v);
  return ms === null ? null : new Date(ms).toISOString();
}

/** A timestamp as epoch ms, or null. */
export function toMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const ms = v < 1e11 ? v * 1000 : v;
    return Number.isFinite(new Date(ms).getTime()) ? ms : null;
  }
  if (typeof v === 'string' && v.trim() !== '') {
    if (/^\d+$/.test(v.trim())) return toMs(Number(v.trim()));
    // Date.parse is lenient ("ISO-8601" parses as the year 8601): accept only date-shaped strings.
    if (!/^\s*\d{4}-\d{2}-\d{2}/.test(v)) return null;
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** A problem from these readers with its text made safe to print (JSON errors quote the file). */
export function cleanProblem(problem: Problem): Problem {
  return { file: problem.file === null ? null : sanitizeLine(problem.file), message: sanitizeLine(problem.message) };
}

/** Whether a file name holds characters that must never reach the screen (it is skipped, not renamed). */
export function unsafeName(name: string): boolean {
  return sanitizeLine(name) !== name;
}

/**
 * Reads a JSON file and parses its value with `parse`, adding every problem (of the read or of the
 * parse) to `problems`; null when the file can't be read as JSON.
 */
export function readJsonWith<R extends { problems: Problem[] }>(file: string, parse: (value: unknown, file: string) => R, problems: Problem[]): R | null {
  const read = readJson(file);
  if (!read.ok) {
    problems.push(cleanProblem(read.problem));
    return null;
  }
  const parsed = parse(read.value, file);
  problems.push(...parsed.problems);
  return parsed;
}

/**
 * `readJsonWith` on every `*.json` file of a directory, by name; dotfiles are passed over and a name
 * with control characters is skipped as a problem (`what` names the kind of file in its message).
 */
export function readJsonFiles<R extends { problems: Problem[] }>(
  dir: string,
  what: string,
  parse: (value: unknown, file: string) => R,
  problems: Problem[],
  skip: (name: string) => boolean = () => false,
): R[] {
  const results: R[] = [];
  eachJsonFile(dir, what, problems, skip, (value, file) => {
    const parsed = parse(value, file);
    for (const p of parsed.problems) problems.push(p);
    results.push(parsed);
  });
  return results;
}

/**
 * Calls `take` with the parsed value of every `*.json` file of a directory, by name, as readJsonFiles
 * reads them; a file that can't be read as JSON is a problem instead. Nothing is made per file but
 * what `take` keeps: a machine's task folders hold thousands of files.
 */
export function eachJsonFile(
  dir: string,
  what: string,
  problems: Problem[],
  skip: (name: string) => boolean,
  take: (value: unknown, file: string) => void,
): void {
  for (const entry of listEntries(dir, problems)) {
    const name = entry.name;
    if (!name.endsWith('.json') || name.startsWith('.') || skip(name)) continue;
    const file = `${dir}${path.sep}${name}`;
    if (unsafeName(name)) {
      problems.push({ file: sanitizeLine(file), message: `${what} file name contains control characters; skipped` });
      continue;
    }
    // A regular file by its listing is read without a stat; anything else the careful way.
    const text = entry.isFile() ? readListedText(file) : textOrProblem(readText(file));
    if (typeof text !== 'string') {
      problems.push(cleanProblem(text));
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problems.push(cleanProblem(jsonProblem(file, text, err)));
      continue;
    }
    take(value, file);
  }
}
