/**
 * When a process started, and who its parent is, from Linux's /proc: what tells the process in a
 * pane now from the one that was there when an agent claimed it. A pid is reused; a pid with its
 * start time (field 22 of /proc/<pid>/stat, clock ticks since boot) names one process for good.
 * Elsewhere (no /proc) every answer is null and the checks that need it are not made.
 */
import fs from 'node:fs';

/**
 * Clock ticks per second of /proc's times (sysconf(_SC_CLK_TCK)): Linux exports 100 to user space
 * on every architecture it runs on, whatever the kernel's own HZ.
 */
export const CLOCK_TICKS_PER_SECOND = 100;

/** A process's start (clock ticks since boot) and parent, or null when it is gone or unreadable. */
export function procStat(pid: number): { start: number; ppid: number } | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let line: string;
  try {
    line = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const close = line.lastIndexOf(')');
  if (close < 0) return null;
  const rest = line.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  const start = Number(rest[19]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(ppid) ? { start, ppid } : null;
}

/** A process's start time in clock ticks since boot, or null. */
export function procStart(pid: number): number | null {
  return procStat(pid)?.start ?? null;
}

let bootMs: number | null | undefined;

/** When the machine booted (epoch ms, /proc/stat's btime), or null without /proc. */
export function bootTimeMs(): number | null {
  if (bootMs !== undefined) return bootMs;
  try {
    const m = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    bootMs = m ? Number(m[1]) * 1000 : null;
  } catch {
    bootMs = null;
  }
  return bootMs;
}

/** A start in clock ticks as epoch ms (to within a second: btime is whole seconds), or null. */
export function ticksToEpochMs(ticks: number): number | null {
  const boot = bootTimeMs();
  return boot === null ? null : boot + (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

let ownPidSpace: string | null | undefined;

/** This process's pid namespace (`pid:[4026531836]`), or null when it cannot be read. */
export function pidSpace(): string | null {
  if (ownPidSpace !== undefined) return ownPidSpace;
  try {
    ownPidSpace = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    ownPidSpace = null;
  }
  return ownPidSpace;
}

/**
 * Whether a recorded pid space is ours: the same link text, or the same namespace number however it
 * is written (`4026531836`, `pid:[4026531836]`). Unknown on either side counts as ours: the pid is
 * then checked by its start time alone.
 */
export function samePidSpace(recorded: string | null): boolean {
  const own = pidSpace();
  if (recorded === null || own === null) return true;
  const num = (s: string) => /(\d{4,})/.exec(s)?.[1] ?? s;
  return recorded === own || num(recorded) === num(own);
}

/** At most this many parents are walked up from a process (a loop in a broken /proc ends here). */
const MAX_DEPTH = 64;

/** The process and its ancestors, nearest first (pid 1 and 0 left out). */
export function ancestors(pid: number): number[] {
  const out: number[] = [];
  let at = pid;
  for (let i = 0; i < MAX_DEPTH && at > 1; i++) {
    out.push(at);
    const st = procStat(at);
    if (!st) break;
    at = st.ppid;
  }
  return out;
}
