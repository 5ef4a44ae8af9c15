/**
 * The Codex process a pane runs, as /proc tells it: where it works (its cwd), when it started, and
 * the CODEX_HOME it uses (its environment's `CODEX_HOME`, else `$HOME/.codex`). This is what ties a
 * thread of the shared app server to the pane: never the `$TMUX_PANE` the server started with, which
 * is the pane of whichever Codex started it. Bounded: a few processes per pane, small reads.
 */
import fs from 'node:fs';
import { argvOf, childrenOf } from '../proc.js';
import path from 'node:path';
import { procStat, ticksToEpochMs } from '../../tmux/proc-start.js';
import { isCodexArgv } from './recognise.js';

/** Processes looked at under a pane's first one. */
const MAX_PROCESSES = 8;
const MAX_ENVIRON_BYTES = 1024 * 1024;

/** A Codex agent's process in a pane. */
export interface CodexProcess {
  pid: number;
  /** Its start, clock ticks since boot (with the pid, it names the process for good). */
  start: number;
  /** Its start as epoch ms, or null without /proc's boot time. */
  startMs: number | null;
  /** Its working folder, real path. */
  cwd: string;
  /** Its CODEX_HOME, real path when it exists. */
  home: string;
}

function envOf(pid: number): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
    if (env.length > MAX_ENVIRON_BYTES) return out;
    for (const kv of env.split('\0')) {
      const eq = kv.indexOf('=');
      if (eq > 0 && (kv.startsWith('CODEX_HOME=') || kv.startsWith('HOME=')))
        out.set(kv.slice(0, eq), kv.slice(eq + 1));
    }
  } catch {
    // Not ours to read.
  }
  return out;
}

/** A path made real when it exists (a link to a folder, `/tmp` behind a link). */
export function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * The Codex process of a pane whose first process is `panePid`: the first, breadth first, that is
 * Codex by its argv (the npm launcher, or the binary it runs). Null when none is, or /proc does not say.
 */
export function codexProcessOf(panePid: number): CodexProcess | null {
  const queue = [panePid];
  for (let looked = 0; queue.length > 0 && looked < MAX_PROCESSES; looked++) {
    const pid = queue.shift()!;
    if (isCodexArgv(argvOf(pid) ?? [])) return describe(pid);
    queue.push(...childrenOf(pid));
  }
  return null;
}

function describe(pid: number): CodexProcess | null {
  const st = procStat(pid);
  let cwd: string;
  try {
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
  if (!st || !path.isAbsolute(cwd)) return null;
  const env = envOf(pid);
  const given = env.get('CODEX_HOME');
  const home = given && path.isAbsolute(given) ? given : env.has('HOME') ? path.join(env.get('HOME')!, '.codex') : null;
  if (home === null || !path.isAbsolute(home)) return null;
  return { pid, start: st.start, startMs: ticksToEpochMs(st.start), cwd: realOr(cwd), home: realOr(home) };
}
