/**
 * Reading the rules file, trusted only when no one else could have written it: a regular file (not
 * a symlink), the user's own (or root's), writable by no one else, in a folder the same holds for.
 * A file that fails any of this, or does not parse, answers nothing: every request is asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { compileRules } from './match.js';
import type { CompiledRule } from './match.js';
import { RulesFileSchema } from './schema.js';

/** A rules file is a policy, not a data set: bigger than this is refused. */
const MAX_BYTES = 1024 * 1024;

/** The rules as loaded: none when the file is missing, refused or bad (then `problem` says why). */
export interface LoadedRules {
  file: string;
  rules: CompiledRule[];
  /** Why the file answers nothing (refused, unreadable, not valid), or null. */
  problem: string | null;
  /** The file's text, when it was trusted and read (what travels to a box that takes these rules). */
  text?: string;
}

const uid = (): number => (typeof process.getuid === 'function' ? process.getuid() : os.userInfo().uid);

export { rulesFilePath } from './file-path.js';

/** Why a file or folder could be written by someone else (or is a link), or null. */
export function untrusted(st: fs.Stats, what: string): string | null {
  if (st.isSymbolicLink()) return `${what} is a symlink`;
  if (st.uid !== uid() && st.uid !== 0) return `${what} belongs to uid ${st.uid}, not to you (uid ${uid()})`;
  if ((st.mode & 0o022) !== 0)
    return `${what} is writable by ${st.mode & 0o020 ? 'its group' : 'others'} (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** The rules of `file`, checked for trust, parsed and compiled. A missing file is no rules and no problem. */
export function loadRules(file: string): LoadedRules {
  const none = (problem: string | null): LoadedRules => ({ file, rules: [], problem });
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink put in place between a check and the read is refused, not followed.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return none(null);
    if (code === 'ELOOP') return none(`${file} is a symlink: refused, no request is answered by rule`);
    return none(`${file} cannot be read (${code ?? 'error'}): no request is answered by rule`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return none(`${file} is not a file: no request is answered by rule`);
    const dir = path.dirname(file);
    const why = untrusted(st, file) ?? untrusted(fs.lstatSync(dir), `its folder ${dir}`);
    if (why) return none(`${why}: another user could write rules for you; refused, no request is answered by rule`);
    if (st.size > MAX_BYTES) return none(`${file} is over ${MAX_BYTES} bytes: refused`);
    const text = fs.readFileSync(fd, 'utf8');
    return { ...parseRules(file, text), text };
  } finally {
    fs.closeSync(fd);
  }
}

/** The rules of a file's text, or the problem that makes it answer nothing. */
export function parseRules(file: string, text: string): LoadedRules {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return {
      file,
      rules: [],
      problem: `${file} is not JSON (${(e as Error).message}): no request is answered by rule`,
    };
  }
  const parsed = RulesFileSchema.safeParse(raw);
  if (!parsed.success)
    return {
      file,
      rules: [],
      problem: `${file} is not a valid rules file: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`,
    };
  return { file, rules: compileRules(parsed.data), problem: null };
}

/** What names rules that came over ssh from another tower, in problems and audit lines. */
export const SENT_RULES = "the rules the operator's tower sent";

/**
 * Rules another tower sent over ssh (`tower serve` taking the operator's rules): untrusted input,
 * held to the same bounds and schema as a file; anything else answers nothing, and says why.
 */
export function parseSentRules(text: unknown): LoadedRules {
  const none = (problem: string): LoadedRules => ({ file: SENT_RULES, rules: [], problem });
  // None: the operator has no rules (their file is missing, or refused and said there): none answer here either.
  if (text === null) return { file: SENT_RULES, rules: [], problem: null };
  if (typeof text !== 'string') return none(`${SENT_RULES} are not text: no request is answered by rule`);
  if (Buffer.byteLength(text, 'utf8') > MAX_BYTES) return none(`${SENT_RULES} are over ${MAX_BYTES} bytes: refused`);
  return parseRules(SENT_RULES, text);
}

/** Stat fields that change when a file or folder is replaced, rewritten or re-permissioned. */
function stamp(st: fs.Stats): string {
  return `${st.ino}:${st.mtimeMs}:${st.ctimeMs}:${st.size}:${st.mode}:${st.uid}`;
}

/**
 * The rules of one file, read again only when it or its folder changed (two lstats a look): a file
 * made unsafe, replaced or removed is seen at the next look.
 */
export class RulesSource {
  private last: { key: string; loaded: LoadedRules } | null = null;

  constructor(readonly file: string) {}

  /** The rules as they are now. */
  current(): LoadedRules {
    let key = 'missing';
    try {
      // No file is the usual case, looked at every second: told without an error thrown (~2 ms each).
      const file = fs.lstatSync(this.file, { throwIfNoEntry: false });
      const dir = file && fs.lstatSync(path.dirname(this.file), { throwIfNoEntry: false });
      if (file && dir) key = `${stamp(file)}/${stamp(dir)}`;
    } catch {
      key = 'missing';
    }
    if (this.last?.key !== key) this.last = { key, loaded: loadRules(this.file) };
    return this.last.loaded;
  }
}
