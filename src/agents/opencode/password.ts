/**
 * The password of opencode's server (`OPENCODE_SERVER_PASSWORD`, basic auth as user `opencode`), as
 * the operator gave it to tower: the file
 * `$XDG_CONFIG_HOME/tower/opencode-password` on the box whose opencode asks for it, private to its
 * owner. Not an environment variable: tower's children (tmux, ssh, notify commands, the agents it
 * starts) would inherit it. Never guessed, never written to a log, a problem or the screen; a
 * box's tower reads its own file, so one box's password never goes to another. Read on each
 * connect and each answer, so a password written (or changed) is taken without a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The most of the file read: a password longer than this is refused. */
const MAX_BYTES = 4096;

/** Where the password is read from on this box. */
export function passwordFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'tower', 'opencode-password');
}

/** The password read, none (no file), or why the file is not used (the password itself never named). */
export type PasswordRead = { password: string } | { password: null; problem: string | null };

/**
 * The password configured on this box: the file's first line. A file others may read or write, a
 * symlink, or one too long is refused with a problem, and none is sent.
 */
export function readPassword(env: NodeJS.ProcessEnv = process.env): PasswordRead {
  const file = passwordFile(env);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { password: null, problem: null };
    return { password: null, problem: `${file} could not be read (${code ?? 'error'})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { password: null, problem: `${file} is not a file` };
    if ((st.mode & 0o077) !== 0) return { password: null, problem: `${file} is open to others: chmod 600 it` };
    if (typeof process.getuid === 'function' && st.uid !== process.getuid())
      return { password: null, problem: `${file} is not yours` };
    if (st.size > MAX_BYTES) return { password: null, problem: `${file} is over ${MAX_BYTES} bytes` };
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    const password = buf.subarray(0, n).toString('utf8').split(/\r?\n/)[0] ?? '';
    return password ? { password } : { password: null, problem: `${file} is empty` };
  } finally {
    fs.closeSync(fd);
  }
}
