/**
 * Process trees under a pane: read from /proc on Linux (ps elsewhere), identified by pid and start
 * time so a reused pid is never mistaken for the process we signalled.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** One process: its parent, state letter (R, S, Z, ...) and start time (a pid-reuse guard; '' when unknown). */
export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  start: string;
}

/** Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses. */
export function parseStat(line: string): ProcInfo | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(line.slice(0, open).trim());
  const rest = line.slice(close + 2).split(' ');
  const state = rest[0] ?? '';
  const ppid = Number(rest[1]);
  // Field 22 of stat is the start time; rest[] starts at field 3.
  const start = rest[19] ?? '';
  if (!Number.isInteger(pid) || !Number.isInteger(ppid)) return null;
  return { pid, ppid, state, start };
}

function readProc(pid: number): ProcInfo | null {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Every process on the machine, by pid. */
export function listProcesses(): Map<number, ProcInfo> {
  const procs = new Map<number, ProcInfo>();
  if (fs.existsSync('/proc/self/stat')) {
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const p = readProc(Number(name));
      if (p) procs.set(p.pid, p);
    }
    return procs;
  }
  const r = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' });
  for (const line of String(r.stdout ?? '').split('\n')) {
    const [pid, ppid, stat] = line.trim().split(/\s+/);
    if (pid && ppid)
      procs.set(Number(pid), { pid: Number(pid), ppid: Number(ppid), state: (stat ?? '').slice(0, 1), start: '' });
  }
  return procs;
}

/** The tree under `root` (root included), children before their parents. */
export function processTree(root: number, procs: Map<number, ProcInfo> = listProcesses()): ProcInfo[] {
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs.values()) {
    const list = children.get(p.ppid) ?? [];
    list.push(p);
    children.set(p.ppid, list);
  }
  const out: ProcInfo[] = [];
  const seen = new Set<number>();
  const visit = (p: ProcInfo): void => {
    if (seen.has(p.pid)) return;
    seen.add(p.pid);
    for (const c of children.get(p.pid) ?? []) visit(c);
    out.push(p);
  };
  const top = procs.get(root);
  if (top) visit(top);
  return out;
}

/** This process and its ancestors: never signalled, even if tower runs inside a pane being terminated. */
export function protectedPids(procs: Map<number, ProcInfo> = listProcesses()): Set<number> {
  const out = new Set<number>([0, 1]);
  let pid = process.pid;
  while (pid > 1 && !out.has(pid)) {
    out.add(pid);
    pid = procs.get(pid)?.ppid ?? 0;
  }
  return out;
}

/** Whether the process we saw is gone: no such pid, a zombie (dead, not yet reaped), or a reused pid. */
export function isGone(p: ProcInfo): boolean {
  if (fs.existsSync('/proc/self/stat')) {
    const now = readProc(p.pid);
    return !now || now.state === 'Z' || (p.start !== '' && now.start !== p.start);
  }
  try {
    process.kill(p.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Sends a signal; false when the process was already gone. */
export function sendSignal(p: ProcInfo, sig: 'SIGTERM' | 'SIGKILL'): boolean {
  if (isGone(p)) return false;
  try {
    process.kill(p.pid, sig);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/**
 * Whether a process with this pid is running on this machine now (a zombie counts as gone: it
 * has exited and only waits to be reaped).
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (fs.existsSync('/proc/self/stat')) {
    const p = readProc(pid);
    return p !== null && p.state !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
