/**
 * Sandboxes of earlier demos in the temp dir: each demo makes a new one, and a box collects them.
 * A new demo removes those nothing uses any more: its own kind only (`tower-demo-*`, the user's,
 * with the marker a demo writes), and never one whose demo is building or running, nor one a
 * process works in (a shell left cd'd there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_SOCKET_PREFIX, SANDBOX_MARKER, servedSandbox } from '../context/demo-record.js';
import { TmuxClient, socketFile } from '../tmux/client.js';
import { pidAlive } from '../kit/process-tree.js';

/** At most this many old sandboxes are looked at per demo start. */
const MAX_LOOKED_AT = 64;

/** The pid and server a sandbox's marker records, or null when the folder is not a demo's. */
function markerOf(dir: string): { pid: number | null; socketName: string | null } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, SANDBOX_MARKER), 'utf8'));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || (raw as { by?: unknown }).by !== 'tower demo') return null;
  const { pid, socketName } = raw as { pid?: unknown; socketName?: unknown };
  return {
    pid: typeof pid === 'number' ? pid : null,
    socketName: typeof socketName === 'string' ? socketName : null,
  };
}

/** The working directories of this box's processes that can be read (Linux; none elsewhere). */
function workingDirs(): string[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const pid of pids) {
    try {
      out.push(fs.readlinkSync(`/proc/${pid}/cwd`));
    } catch {
      // Gone, or another user's: not ours to look at.
    }
  }
  return out;
}

/** Removes the old sandboxes in `tmp` that no demo and no process uses; returns the folders removed. */
export async function removeOldSandboxes(tmp: string = os.tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    // Exactly what makeTempSandboxDir makes: mkdtemp's six characters after the prefix.
    names = fs
      .readdirSync(tmp)
      .filter((n) => n.startsWith(DEMO_SOCKET_PREFIX) && /^[A-Za-z0-9]{6}$/.test(n.slice(DEMO_SOCKET_PREFIX.length)));
  } catch {
    return [];
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const candidates: { dir: string; socketName: string }[] = [];
  for (const name of names.slice(0, MAX_LOOKED_AT)) {
    const dir = path.join(tmp, name);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory() || (uid !== null && st.uid !== uid)) continue;
    const marker = markerOf(dir);
    // The demo that made it still runs (or is building it): in use.
    if (!marker || (marker.pid !== null && pidAlive(marker.pid))) continue;
    candidates.push({ dir, socketName: marker.socketName ?? name });
  }
  if (candidates.length === 0) return [];
  const cwds = workingDirs();
  const removed: string[] = [];
  for (const { dir, socketName } of candidates) {
    const real = fs.realpathSync(dir);
    if (cwds.some((c) => c === real || c.startsWith(`${real}${path.sep}`))) continue;
    const serverUp = fs.existsSync(socketFile({ name: socketName }));
    if (serverUp && (await servedSandbox(new TmuxClient({ name: socketName }))) === real) continue;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
    removed.push(dir);
  }
  return removed;
}
