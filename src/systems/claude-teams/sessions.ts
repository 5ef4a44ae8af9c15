/**
 * Claude Code's own record of each interactive session: `<claude>/sessions/<pid>.json`, written by
 * the CLI itself (2.1.332: `pid`, `sessionId`, `cwd`, `procStart`, `version`, `tmux` as
 * `<session>:@<window>.%<pane>`, `name`, `status` idle | busy | waiting, `waitingFor` such as
 * "permission prompt", `updatedAt`, `statusUpdatedAt`; removed when the session exits). It needs no
 * setup, so it is the first source of a Claude Code agent's state and pane, before hooks and the
 * screen.
 *
 * Untrusted: each field is checked and cleaned here. A file is live only while its pid runs the very
 * process that wrote it: `procStart` is that process's start time in clock ticks, field 22 of
 * `/proc/<pid>/stat`, so a reused pid does not pass. The pane is taken from the process's own
 * environment (`TMUX` names the server's socket, `TMUX_PANE` the pane) rather than from the file,
 * which names no server. Hand-checked rather than by a zod schema: zod stays off `tower status`'s
 * start path (its bytes are held to a budget, see README), and these are a dozen flat fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from '../../model/model.js';
import { isObject } from '../../files/values.js';
import { parseStat } from '../../kit/process-tree.js';
import type { ProcInfo } from '../../kit/process-tree.js';
import { sanitizeLine } from '../../text/sanitize.js';

/** At most this many session files are looked at per read (a box runs tens; a folder of junk is cut here). */
export const MAX_SESSION_FILES = 1000;
/** A session file is a few hundred bytes; anything past this is not one. */
const MAX_SESSION_BYTES = 64 * 1024;
const SESSION_FILE = /^(\d{1,10})\.json$/;

export type SessionStatus = 'idle' | 'busy' | 'waiting' | 'unknown';

export interface ClaudeSession {
  pid: number;
  procStart: string;
  sessionId: string;
  cwd: string | null;
  version: string | null;
  name: string | null;
  status: SessionStatus;
  /** What it waits for ("permission prompt"), cleaned and cut; null when not waiting. */
  waitingFor: string | null;
  /** Epoch ms of the last status change (else of the last write), or null. */
  statusAt: number | null;
  /** The pane the file names (`%N` of its `tmux` field); no server: see `panePlace`. */
  tmuxPane: string | null;
}

/** Where a process sits in tmux, from its own environment: the server's socket and its pane. */
export interface PanePlace {
  socket: string;
  paneId: string;
}

const text = (v: unknown, max = 200): string | null =>
  typeof v === 'string' && v !== '' ? sanitizeLine(v).slice(0, max) : null;
const epochMs = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e14 ? v : null;

/** Parses one session file's JSON; null (with a problem) when it is not one. */
export function parseSession(json: unknown, file: string, problems: Problem[]): ClaudeSession | null {
  const bad = (why: string) => {
    problems.push({ file: sanitizeLine(file), message: `not a Claude Code session file: ${why}` });
    return null;
  };
  if (!isObject(json)) return bad('not a JSON object');
  const pid = json.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid < 1 || pid > 2 ** 31) return bad('no pid');
  const named = SESSION_FILE.exec(path.basename(file));
  if (named && Number(named[1]) !== pid) return bad(`pid ${pid} is not the file's`);
  if (typeof json.procStart !== 'string' || !/^\d{1,20}$/.test(json.procStart)) return bad('no procStart');
  if (typeof json.sessionId !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(json.sessionId)) return bad('no sessionId');
  const status =
    json.status === 'idle' || json.status === 'busy' || json.status === 'waiting' ? json.status : 'unknown';
  const tmux = typeof json.tmux === 'string' ? /^[^\n]{0,300}:@\d{1,9}\.(%\d{1,9})$/.exec(json.tmux) : null;
  const cwd = typeof json.cwd === 'string' && path.isAbsolute(json.cwd) && json.cwd.length < 4096 ? json.cwd : null;
  return {
    pid,
    procStart: json.procStart,
    sessionId: json.sessionId,
    cwd: cwd !== null && sanitizeLine(cwd) === cwd ? cwd : null,
    version: text(json.version, 40),
    name: text(json.name, 100),
    status,
    waitingFor: status === 'waiting' ? text(json.waitingFor) : null,
    statusAt: epochMs(json.statusUpdatedAt) ?? epochMs(json.updatedAt),
    tmuxPane: tmux?.[1] ?? null,
  };
}

/** A process's start time (clock ticks since boot, as `procStart`), or null when it is not running. */
export function procStartOf(pid: number): string | null {
  const p = procOf(pid);
  // A zombie has ended (this box's init may be slow to reap it).
  return p && p.state !== 'Z' ? p.start : null;
}

/** One process's /proc/<pid>/stat, or null. */
export function procOf(pid: number): ProcInfo | null {
  try {
    return parseStat(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return null;
  }
}

/** Whether the session's process is the one that wrote the file. */
export function sessionIsLive(s: Pick<ClaudeSession, 'pid' | 'procStart'>): boolean {
  return procStartOf(s.pid) === s.procStart;
}

/** Where a process sits in tmux, from `/proc/<pid>/environ` (null: not in tmux, or not ours to read). */
export function panePlaceOf(pid: number): PanePlace | null {
  let env: string;
  try {
    env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    if (env.length > 1024 * 1024) return null;
  } catch {
    return null;
  }
  let socket: string | null = null;
  let paneId: string | null = null;
  for (const kv of env.split('\0')) {
    // TMUX=<socket>,<server pid>,<session index>
    if (kv.startsWith('TMUX=')) socket = /^TMUX=(\/[^,\n]{1,1000}),\d+,-?\d+$/.exec(kv)?.[1] ?? null;
    else if (kv.startsWith('TMUX_PANE=')) paneId = /^TMUX_PANE=(%\d{1,9})$/.exec(kv)?.[1] ?? null;
  }
  return socket !== null && paneId !== null ? { socket, paneId } : null;
}

/** One session file read (null when missing or not a session), its problems added to `problems`. */
export function readSessionFile(file: string, problems: Problem[]): ClaudeSession | null {
  let raw: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > MAX_SESSION_BYTES) return null;
      raw = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    // The CLI rewrites the file as it goes: a read caught half-way is tried again at the next.
    return null;
  }
  return parseSession(json, file, problems);
}

/** The live session of process `pid` (its file's procStart must match it and, when given, `procStart`). */
export function liveSessionOf(claudeDir: string, pid: number, procStart?: string): ClaudeSession | null {
  const s = readSessionFile(path.join(claudeDir, 'sessions', `${pid}.json`), []);
  if (!s || (procStart !== undefined && s.procStart !== procStart)) return null;
  return sessionIsLive(s) ? s : null;
}

/** The names of the session files in `<claude>/sessions/`, at most MAX_SESSION_FILES. */
export function sessionFileNames(claudeDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(claudeDir, 'sessions'));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    if (!SESSION_FILE.test(n)) continue;
    out.push(n);
    if (out.length >= MAX_SESSION_FILES) break;
  }
  return out;
}
