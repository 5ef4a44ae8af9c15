/**
 * Reading untrusted state files: every read returns a value or a problem, never throws.
 * Sources use these so that a missing, empty, truncated, binary or huge file reads the same way everywhere.
 */
import fs from 'node:fs';
import type { Problem } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { describeError, notAFile } from './look.js';
import { isObject } from './values.js';

/** Files above this size are refused rather than parsed (a state file is a few kB). */
export const MAX_STATE_FILE_BYTES = 4 * 1024 * 1024;

/** The buffer every listed regular file (and any file that fits) is read into; grows up to MAX_STATE_FILE_BYTES + 1. */
let listedBuffer = Buffer.allocUnsafe(64 * 1024);

export type Read<T> = { ok: true; value: T } | { ok: false; problem: Problem };
/** Reads a text file of at most MAX_STATE_FILE_BYTES; binary content (NUL bytes) is a problem. */
export function readText(file: string, maxBytes = MAX_STATE_FILE_BYTES): Read<string> {
  return readTextSeen(file, maxBytes, null);
}

/** When a file read by readJsonSeen was last modified; null when it could not be opened and looked at. */
export interface Seen {
  mtimeMs: number | null;
}

/**
 * readJson that also tells when the file was modified, from the fstat the read makes anyway: a
 * Claude team's config is both read and dated, and a second stat per team (10,000 of them on a box
 * that ran teams for months) shows in `tower status` time.
 */
export function readJsonSeen(file: string, seen: Seen): Read<unknown> {
  const text = readTextSeen(file, MAX_STATE_FILE_BYTES, seen);
  if (!text.ok) return text;
  return parseJson(file, text.value);
}

function readTextSeen(file: string, maxBytes: number, seen: Seen | null): Read<string> {
  // One open and an fstat on the descriptor: a machine holds thousands of task files, and a path
  // lookup per stat shows in `tower status` time.
  let fd: number | null = null;
  if (seen) seen.mtimeMs = null;
  try {
    // O_NONBLOCK: opening a FIFO never waits for a writer; O_NOCTTY: a terminal device never becomes ours.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
    const st = fs.fstatSync(fd);
    if (seen) seen.mtimeMs = st.mtimeMs;
    const not = notAFile(st);
    if (not) return { ok: false, problem: { file, message: not } };
    if (st.size > maxBytes) {
      return { ok: false, problem: { file, message: `file is too large (${st.size} bytes, limit ${maxBytes})` } };
    }
    // A file that fits is read into the buffer listed files share: a buffer of its own per file was
    // 10,000 more objects and pool slabs on a box of 10,000 team configs.
    const buf = st.size <= listedBuffer.length ? listedBuffer : Buffer.allocUnsafe(st.size);
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
    return { ok: false, problem: { file, message: describeError(err) } };
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

/**
 * Reads a file that its directory listing called regular, without a stat: a machine holds thousands
 * of task files, and the stat's object per file shows in `tower status` time. The open refuses a
 * link (O_NOFOLLOW: a link put there since the listing goes through readText, which says what it
 * points at) and never waits (O_NONBLOCK); at most MAX_STATE_FILE_BYTES + 1 bytes are ever read, so
 * a file swapped for a pipe or grown huge since the listing costs no more than a file at the limit.
 */
export function readListedText(file: string): string | Problem {
  let fd: number;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY | fs.constants.O_NOFOLLOW,
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return textOrProblem(readText(file));
    return { file, message: describeError(err) };
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
    return { file, message: describeError(err) };
  } finally {
    fs.closeSync(fd);
  }
}

export function textOrProblem(read: Read<string>): string | Problem {
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
export function jsonProblem(file: string, text: string, err: unknown): Problem {
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
/** A problem from these readers with its text made safe to print (JSON errors quote the file). */
export function cleanProblem(problem: Problem): Problem {
  return { file: problem.file === null ? null : sanitizeLine(problem.file), message: sanitizeLine(problem.message) };
}
