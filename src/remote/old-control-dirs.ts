/**
 * Control-socket folders of towers that ended without removing them (`tower-ssh-XXXXXX`, left by
 * a SIGKILL or a crash): the next start removes those nothing uses, its own kind only (the user's,
 * the exact name mkdtemp makes), never one whose tower still runs (its `pid` file) nor one whose
 * ssh master still answers on a socket in it.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pidAlive } from '../kit/process-tree.js';

/** The folders' prefix (ControlDir makes them). */
export const CONTROL_DIR_PREFIX = 'tower-ssh-';
/** The file in a folder that names the tower using it. */
export const CONTROL_DIR_OWNER = 'pid';
/** At most this many folders are looked at per start. */
const MAX_LOOKED_AT = 64;
/** A folder without an owner file is left this long (its tower may be writing the file right now). */
const UNOWNED_GRACE_MS = 60_000;
/** A socket that neither accepts nor refuses within this long counts as in use. */
const CONNECT_MS = 500;

/** Whether something listens on the unix socket `file` (an ssh master); unsure counts as yes. */
function listening(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(true), CONNECT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(!['ECONNREFUSED', 'ENOENT'].includes(err.code ?? '')));
  });
}

/** The pid in a folder's owner file, or null when there is none (or it is not a pid). */
function ownerOf(dir: string): number | null {
  try {
    const text = fs.readFileSync(path.join(dir, CONTROL_DIR_OWNER), 'utf8').trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

/** Whether a folder is used: its tower runs, or an ssh master answers on one of its sockets. */
async function inUse(dir: string, mtimeMs: number, now: number): Promise<boolean> {
  const owner = ownerOf(dir);
  if (owner !== null && pidAlive(owner)) return true;
  if (owner === null && now - mtimeMs < UNOWNED_GRACE_MS) return true;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return true;
  }
  for (const e of entries) if (e.isSocket() && (await listening(path.join(dir, e.name)))) return true;
  return false;
}

/** Removes the control-socket folders under `roots` nothing uses; returns the folders removed. */
export async function removeOldControlDirs(
  roots: string[] = [...new Set([os.tmpdir(), '/tmp'])],
  now = Date.now(),
): Promise<string[]> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const removed: string[] = [];
  for (const root of roots) {
    let names: string[];
    try {
      names = fs
        .readdirSync(root)
        .filter((n) => n.startsWith(CONTROL_DIR_PREFIX) && /^[A-Za-z0-9]{6}$/.test(n.slice(CONTROL_DIR_PREFIX.length)));
    } catch {
      continue;
    }
    for (const name of names.slice(0, MAX_LOOKED_AT)) {
      const dir = path.join(root, name);
      const st = fs.lstatSync(dir, { throwIfNoEntry: false });
      if (!st?.isDirectory() || (uid !== null && st.uid !== uid)) continue;
      if (await inUse(dir, st.mtimeMs, now)) continue;
      try {
        fs.rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      } catch {
        // Another tower removed it first, or it can't be: the next start tries again.
      }
    }
  }
  return removed;
}
