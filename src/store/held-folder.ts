/**
 * Whether tower may trust the folder of held requests, and whether a request's hook still holds it.
 * On a shared box another user who can write into `held/` could answer for the operator (an
 * `allow` file is all the hook reads): tower reads requests from, and writes answers into, a folder
 * only when it and the folders above it up to tower's state folder are the user's own, no links,
 * and writable by nobody else. A request whose hook is gone (killed, or its pid now another
 * process) is a leftover: never shown, removed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const uid = (): number => (typeof process.getuid === 'function' ? process.getuid() : os.userInfo().uid);

/**
 * Why the held-requests folder `dir` (under `<towerState>/hooks/`) must not be trusted, or null
 * when it and its parents up to `towerState` are the user's own and writable by nobody else.
 * A folder that does not exist yet is no problem (nothing is held).
 */
export function heldFolderProblem(towerState: string, dir: string): string | null {
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === towerState || path.dirname(d) === d) break;
  }
  for (const d of chain) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(d);
    } catch {
      return null;
    }
    if (st.isSymbolicLink()) return `${d} is a symlink; tower reads and answers held requests only in its own folder`;
    if (!st.isDirectory()) return `${d} is not a folder`;
    if (st.uid !== uid())
      return `${d} belongs to uid ${st.uid}, not to you (uid ${uid()}): another user could answer for you there`;
    if ((st.mode & 0o022) !== 0)
      return (
        `${d} is writable by ${st.mode & 0o020 ? 'its group' : 'others'} (mode ` +
        `${(st.mode & 0o777).toString(8)}): another user could answer for you there; chmod 700 it`
      );
  }
  return null;
}

/** Boot time (epoch s), for a process's start time; read once. */
let bootTime: number | null | undefined;
function bootSeconds(): number | null {
  if (bootTime !== undefined) return bootTime;
  try {
    const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    bootTime = m ? Number(m[1]) : null;
  } catch {
    bootTime = null;
  }
  return bootTime;
}

/** Clock ticks per second of /proc's start times (USER_HZ: 100 on every Linux tower runs on). */
const TICKS = 100;
/** The shells a hook runs in (Claude Code runs a command hook with `sh -c`). */
const SHELLS = /^(sh|dash|bash|zsh|ksh|mksh|ash|busybox)$/;
/**
 * How far past the epoch in its id a hook's start may lie: it reads the clock after it starts, so
 * only rounding (whole seconds, the boot time's own) puts its start later. A later process with
 * the pid is no hook of that request.
 */
const LATER_S = 2;

/**
 * Whether the hook that wrote request `<epoch>-<pid>` still runs: the pid is alive, not a zombie,
 * a shell, and started when the id says (a pid reused by a later process started later). Where
 * /proc is missing (macOS), a live pid of the user's is taken as the hook.
 */
export function hookAlive(pid: number, epoch: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) return false;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    if (fs.existsSync('/proc/self/stat')) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return false;
  const comm = stat.slice(open + 1, close);
  const rest = stat.slice(close + 2).split(' ');
  if (rest[0] === 'Z' || !SHELLS.test(comm)) return false;
  const boot = bootSeconds();
  const ticks = Number(rest[19]);
  if (boot === null || !Number.isFinite(ticks)) return true;
  return boot + ticks / TICKS <= epoch + LATER_S;
}
