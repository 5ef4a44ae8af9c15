/**
 * Claude Code's own tmux servers. A lead started outside tmux puts its teammates on a server of its
 * own, socket `claude-swarm-<leadPid>` in tmux's socket directory (`${TMUX_TMPDIR:-/tmp}/tmux-<uid>/`);
 * the team file keeps only each member's `%N`, which another server may hold too. One scan lists
 * the panes of every such server, bounded: at most MAX_SWARM_SERVERS servers, a few tmux processes
 * at a time, a short timeout each, sockets whose server is dead are remembered for a while, and a
 * server that timed out is set aside, longer at each timeout in a row. Only sockets the user owns,
 * in a folder the user owns that no one else may write in, are used.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sanitizeLine } from '../text/sanitize.js';
import type { PaneInfo } from './client.js';
import { TmuxClient } from './client.js';
import { TmuxError } from './errors.js';

/** The only socket names tower reads as Claude Code's servers (and ever puts in a command line). */
export const SWARM_SOCKET = /^claude-swarm-(\d{1,10})$/;
/** At most this many swarm servers are listed per scan. */
export const MAX_SWARM_SERVERS = 32;
/** At most this many tmux processes run at once during a scan. */
export const SWARM_CONCURRENCY = 4;
/** A socket whose server did not answer as "no server" is not asked again for this long. */
export const DEAD_SOCKET_TTL_MS = 60_000;
/** At most this many dead sockets are remembered (the oldest is forgotten first). */
const MAX_DEAD_REMEMBERED = 256;
/** At most this many directory entries are looked at per scan. */
const MAX_ENTRIES = 4096;
/** One listing of a swarm server: a server that does not answer in this long is skipped this tick. */
export const SWARM_TIMEOUT_MS = 1500;
/**
 * A server that timed out is set aside this long, doubled at each timeout after it up to
 * SLOW_BACKOFF_MAX_MS: asked again every poll, 12 stopped servers took tower status to 6.1 s.
 */
export const SLOW_BACKOFF_MS = 10_000;
export const SLOW_BACKOFF_MAX_MS = 5 * 60_000;

/** One Claude Code swarm server and its panes. */
export interface SwarmServer {
  /** The socket name, `claude-swarm-<leadPid>` (checked against SWARM_SOCKET). */
  name: string;
  /** The socket's full path: what tower passes to tmux (`-S`). */
  path: string;
  /** The lead's pid, from the socket name. */
  leadPid: number;
  /** Whether a process with that pid exists now. */
  leadAlive: boolean;
  /** The lead process's working directory (Linux /proc), or null when unknown. */
  leadCwd: string | null;
  panes: PaneInfo[];
}

/** What one scan found: the servers that answered, and a line per server that failed in another way than "dead". */
export interface SwarmScanResult {
  servers: SwarmServer[];
  problems: string[];
}

/** tmux's socket directory for an environment: `${TMUX_TMPDIR:-/tmp}/tmux-<uid>`. */
export function tmuxSocketDir(env: NodeJS.ProcessEnv): string {
  const base = env.TMUX_TMPDIR && env.TMUX_TMPDIR !== '' ? env.TMUX_TMPDIR : '/tmp';
  const uid = typeof process.getuid === 'function' ? process.getuid() : os.userInfo().uid;
  return path.join(base, `tmux-${uid}`);
}

/** The lead pid a socket name gives, or null when the name is not a swarm socket's. */
export function swarmLeadPid(name: string): number | null {
  const m = SWARM_SOCKET.exec(name);
  const pid = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** A client for one swarm server by its socket name, or null when the name is not a swarm socket's. */
export function swarmClient(env: NodeJS.ProcessEnv, name: string, timeoutMs?: number): TmuxClient | null {
  if (swarmLeadPid(name) === null) return null;
  return new TmuxClient({ path: path.join(tmuxSocketDir(env), name) }, timeoutMs);
}

function ownUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : os.userInfo().uid;
}

/**
 * Why the socket folder may not be trusted, or null. tmux checks its own folder for `-L` but not for
 * a path given with `-S`, and tower reaches swarm servers by path: a folder another user owns, or
 * one group or others may write in, could hold a socket planted there to receive what tower types.
 */
export function socketDirDistrust(dir: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return null;
  }
  if (!st.isDirectory()) return `${sanitizeLine(dir)} is not a folder`;
  if (st.uid !== ownUid()) return `${sanitizeLine(dir)} is owned by uid ${st.uid}, not by you`;
  if ((st.mode & 0o022) !== 0)
    return (
      `${sanitizeLine(dir)} is writable by ${st.mode & 0o020 ? 'group' : 'others'} (mode ` +
      `${(st.mode & 0o777).toString(8)})`
    );
  return null;
}

/** Why a swarm socket may not be trusted (its owner is another user), or null. */
export function socketDistrust(st: fs.Stats, file: string): string | null {
  return st.uid === ownUid() ? null : `${sanitizeLine(file)} is owned by uid ${st.uid}, not by you`;
}

/**
 * A client for a swarm server an action is about to reach, checked as a scan checks it (the folder
 * and the socket are the user's and no one else may write the folder); throws the reason otherwise.
 */
export function trustedSwarmClient(env: NodeJS.ProcessEnv, name: string, timeoutMs?: number): TmuxClient | null {
  const client = swarmClient(env, name, timeoutMs);
  if (!client) return null;
  const file = client.socket.path as string;
  let why = socketDirDistrust(path.dirname(file));
  if (why === null) {
    try {
      why = socketDistrust(fs.lstatSync(file), file);
    } catch {
      why = null;
    }
  }
  if (why !== null) throw new Error(`tmux ${name}: not used: ${why}`);
  return client;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function processCwd(pid: number): string | null {
  try {
    return sanitizeLine(fs.readlinkSync(`/proc/${pid}/cwd`));
  } catch {
    return null;
  }
}

/** Runs `work` over `items`, at most `limit` at once, keeping the order of the results. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Scans the socket directory for Claude Code's servers; keeps the dead-socket cache between scans. */
export class SwarmScanner {
  /** Socket path → until when it counts as dead, and the inode it had (a new server makes a new socket). */
  private dead = new Map<string, { until: number; ino: number }>();
  /** Socket path → until when a server that timed out is set aside, its inode, and its timeouts in a row. */
  private slow = new Map<string, { until: number; ino: number; misses: number }>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly opts: {
      now?: () => number;
      timeoutMs?: number;
      maxServers?: number;
      /** Tower's own server, when it is one of these sockets: by path (-S) or by name (-L). */
      exclude?: string | undefined;
      excludeName?: string | undefined;
    } = {},
  ) {}

  /**
   * A socket in the directory worth asking for its panes: a swarm lead's, not tower's own, a socket
   * the user alone owns, neither remembered dead nor set aside; null (with its problem, if any) else.
   */
  private candidate(
    dir: string,
    name: string,
    now: number,
    problems: string[],
  ): { name: string; path: string; ino: number; mtime: number } | null {
    if (swarmLeadPid(name) === null) return null;
    const full = path.join(dir, name);
    if (full === this.opts.exclude || name === this.opts.excludeName) return null;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(full);
    } catch {
      return null;
    }
    if (!st.isSocket()) return null;
    const socketWhy = socketDistrust(st, full);
    if (socketWhy !== null) {
      problems.push(`tmux ${name}: not used: ${socketWhy}; its teammates' liveness is unknown`);
      return null;
    }
    const dead = this.dead.get(full);
    if (dead && dead.until > now && dead.ino === st.ino) return null;
    if (dead) this.dead.delete(full);
    const slow = this.slow.get(full);
    if (slow && slow.until > now && slow.ino === st.ino) {
      problems.push(
        `tmux ${name}: did not answer; set aside for ${Math.ceil((slow.until - now) / 1000)} s ` +
          `more; its teammates' liveness is unknown`,
      );
      return null;
    }
    return { name, path: full, ino: st.ino, mtime: st.mtimeMs };
  }

  /** Lists the panes of every live swarm server (tower's own server excluded by its socket path). */
  async scan(signal?: AbortSignal): Promise<SwarmScanResult> {
    const dir = tmuxSocketDir(this.env);
    const now = (this.opts.now ?? Date.now)();
    const max = this.opts.maxServers ?? MAX_SWARM_SERVERS;
    const problems: string[] = [];
    const candidates: { name: string; path: string; ino: number; mtime: number }[] = [];
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      // No socket directory: no server of any kind has run under this TMUX_TMPDIR.
      return { servers: [], problems };
    }
    const dirWhy = names.some((n) => swarmLeadPid(n) !== null) ? socketDirDistrust(dir) : null;
    if (dirWhy !== null) {
      problems.push(`tmux: claude-swarm servers in ${sanitizeLine(dir)} are not used: ${dirWhy}`);
      return { servers: [], problems };
    }
    for (const name of names.slice(0, MAX_ENTRIES)) {
      const c = this.candidate(dir, name, now, problems);
      if (c) candidates.push(c);
    }
    // The newest sockets first: a lead that started lately is the one most likely still running.
    // Code-unit order, not localeCompare: a collator loads ICU's locale data (tens of ms) at start.
    candidates.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (candidates.length > max)
      problems.push(
        `tmux: ${candidates.length} claude-swarm servers in ${sanitizeLine(dir)}; only the newest ${max} are read`,
      );
    const chosen = candidates.slice(0, max);
    const listed = await bounded(chosen, SWARM_CONCURRENCY, async (c) => {
      const client = new TmuxClient({ path: c.path }, this.opts.timeoutMs ?? SWARM_TIMEOUT_MS);
      try {
        return { c, ok: true as const, panes: await client.listPanes({ signal }) };
      } catch (err) {
        return { c, ok: false as const, err };
      }
    });
    const servers: SwarmServer[] = [];
    for (const r of listed) {
      const leadPid = swarmLeadPid(r.c.name) as number;
      if (r.ok) {
        this.slow.delete(r.c.path);
        const leadAlive = processAlive(leadPid);
        servers.push({
          name: r.c.name,
          path: r.c.path,
          leadPid,
          leadAlive,
          leadCwd: leadAlive ? processCwd(leadPid) : null,
          panes: r.panes,
        });
        continue;
      }
      if (r.err instanceof TmuxError && (r.err.kind === 'no-server' || isRefused(r.err))) {
        this.rememberDead(r.c.path, r.c.ino, now);
        continue;
      }
      if (signal?.aborted) continue;
      if (r.err instanceof TmuxError && r.err.kind === 'timeout') this.setAside(r.c.path, r.c.ino, now);
      const msg = r.err instanceof Error ? r.err.message : String(r.err);
      problems.push(`tmux ${r.c.name}: ${sanitizeLine(msg)}; its teammates' liveness is unknown`);
    }
    return { servers, problems };
  }

  /** Whether a socket is remembered as dead now (it is skipped without running tmux). */
  isRememberedDead(file: string): boolean {
    const dead = this.dead.get(file);
    return dead !== undefined && dead.until > (this.opts.now ?? Date.now)();
  }

  /** Sets a server that timed out aside, twice as long as the last time it did (bounded). */
  private setAside(file: string, ino: number, now: number): void {
    const prev = this.slow.get(file);
    const misses = prev && prev.ino === ino ? prev.misses + 1 : 1;
    const wait = Math.min(SLOW_BACKOFF_MAX_MS, SLOW_BACKOFF_MS * 2 ** Math.min(misses - 1, 20));
    this.slow.delete(file);
    this.slow.set(file, { until: now + wait, ino, misses });
    if (this.slow.size > MAX_DEAD_REMEMBERED) this.slow.delete(this.slow.keys().next().value!);
  }

  private rememberDead(file: string, ino: number, now: number): void {
    this.dead.delete(file);
    this.dead.set(file, { until: now + DEAD_SOCKET_TTL_MS, ino });
    if (this.dead.size > MAX_DEAD_REMEMBERED) this.dead.delete(this.dead.keys().next().value!);
  }
}

/** A socket file whose server is gone answers "connection refused". */
function isRefused(err: TmuxError): boolean {
  return /connection refused|error connecting/i.test(err.message);
}
