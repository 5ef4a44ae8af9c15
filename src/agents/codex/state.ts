/**
 * What Codex's own sources say each Codex pane is doing, exactest first: the shared app server's
 * `thread/list` (asking, idle, active), then the thread's rollout (a turn started, ended, aborted;
 * the token counts). The store reads hooks and the screen where neither speaks.
 *
 * A thread is tied to a pane by the pane's own Codex process: the thread works in the folder that
 * process works in (`cwd`), its rollout lies under the CODEX_HOME that process uses, and it was made
 * after that process started; of those, the newest (`/new` makes another). Never by the
 * `$TMUX_PANE` the shared server started with. Two Codex panes on one home in one folder cannot be
 * told apart this way: both are left to the screen, and a problem line says so.
 *
 * Cost: one `thread/list` per CODEX_HOME at most every REFRESH_MS, only while a Codex pane exists;
 * the process of a pane is looked up once per pane process; a rollout is read from where the last
 * read ended.
 */
import path from 'node:path';
import type { AgentCue, AgentPane, AgentState, AgentStateSource } from '../types.js';
import type { Activity } from '../../model/values.js';
import { listThreads, type ListResult, type Thread } from './app-server.js';
import { codexProcessOf, realOr, type CodexProcess } from './pane-agent.js';
import { rolloutState } from './rollout.js';
import { procStat } from '../../tmux/proc-start.js';

/** The least time between two asks of one app server. */
export const REFRESH_MS = 1500;
/** A thread made this long before its process's start still counts (boot time and createdAt are whole seconds). */
const START_SLACK_MS = 2000;
/** Panes remembered with their process (a box runs tens). */
const MAX_PANES = 500;

/** What a thread's status says, or null for one tower does not read (not loaded, an error). */
export function threadActivity(t: Pick<Thread, 'status'>): { activity: Activity; cue: AgentCue } | null {
  if (t.status.type === 'active')
    return t.status.activeFlags?.includes('waitingOnApproval')
      ? { activity: 'waiting', cue: 'question' }
      : { activity: 'working', cue: 'interrupt-hint' };
  if (t.status.type === 'idle') return { activity: 'waiting', cue: 'prompt' };
  return null;
}

/**
 * The thread of `p` among a home's threads: not ephemeral (a title's hidden thread), in `p`'s folder,
 * its rollout under `p`'s home, made after `p` started; the newest. Null when none is.
 */
export function threadOf(p: CodexProcess, threads: readonly Thread[], real = realOr): Thread | null {
  const sessions = path.join(p.home, 'sessions') + path.sep;
  let best: Thread | null = null;
  for (const t of threads) {
    if (t.ephemeral === true || !path.isAbsolute(t.cwd) || real(t.cwd) !== p.cwd) continue;
    if (typeof t.path !== 'string' || !path.isAbsolute(t.path) || !realOr(t.path).startsWith(sessions)) continue;
    if (p.startMs !== null && t.createdAt * 1000 < p.startMs - START_SLACK_MS) continue;
    if (!best || t.createdAt > best.createdAt) best = t;
  }
  return best;
}

interface PaneEntry {
  pid: number;
  proc: CodexProcess | null;
  /** The rollout of its thread, as the app server last named it (kept while the server does not answer). */
  rollout: string | null;
  state: AgentState | null;
}

/** Codex's own state for the panes that run it. */
export class CodexStates implements AgentStateSource {
  private panes = new Map<string, PaneEntry>();
  private askedAt = -Infinity;
  problems: string[] = [];

  constructor(private readonly list: (home: string) => Promise<ListResult> = listThreads) {}

  async refresh(panes: readonly AgentPane[], now: number): Promise<boolean> {
    if (now - this.askedAt < REFRESH_MS) return false;
    this.askedAt = now;
    const before = this.key();
    const wanted = new Set(panes.map((p) => p.key));
    for (const key of this.panes.keys()) if (!wanted.has(key)) this.panes.delete(key);
    for (const p of panes.slice(0, MAX_PANES)) {
      const known = this.panes.get(p.key);
      // The same pane process still running the same Codex (a shell's Codex may have been started again).
      if (known && known.pid === p.pid && known.proc && procStat(known.proc.pid)?.start === known.proc.start) continue;
      this.panes.set(p.key, { pid: p.pid, proc: codexProcessOf(p.pid), rollout: null, state: null });
    }
    const byHome = new Map<string, [string, PaneEntry][]>();
    for (const [key, e] of this.panes) {
      if (!e.proc) continue;
      byHome.set(e.proc.home, [...(byHome.get(e.proc.home) ?? []), [key, e]]);
    }
    const problems: string[] = [];
    await Promise.all(
      [...byHome].map(async ([home, entries]) => {
        const listed = await this.list(home);
        if (!listed.ok && !/ENOENT|ECONNREFUSED/.test(listed.problem))
          problems.push(
            `Codex app server of ${home}: ${listed.problem}; its agents are read from their rollouts and screens`,
          );
        if (listed.ok && listed.bad > 0)
          problems.push(`Codex app server of ${home}: ${listed.bad} thread(s) did not parse and were left out`);
        const threads = listed.ok ? listed.threads : null;
        for (const [key, e] of entries) {
          const twin = entries.find(([k, o]) => k !== key && o.proc!.cwd === e.proc!.cwd);
          if (twin) {
            e.state = null;
            continue;
          }
          e.state = this.read(e, threads, now);
        }
        const folders = new Map<string, string[]>();
        for (const [key, e] of entries) folders.set(e.proc!.cwd, [...(folders.get(e.proc!.cwd) ?? []), key]);
        for (const [cwd, keys] of folders)
          if (keys.length > 1)
            problems.push(
              `Codex agents in panes ${keys.join(', ')} work in one folder (${cwd}) on one CODEX_HOME: ` +
                `their threads cannot be told apart, so each is read from its screen`,
            );
      }),
    );
    this.problems = problems;
    return this.key() !== before;
  }

  /** What the app server (else the rollout) says of one pane's agent. */
  private read(e: PaneEntry, threads: readonly Thread[] | null, now: number): AgentState | null {
    const thread = threads ? threadOf(e.proc!, threads) : null;
    if (thread) e.rollout = thread.path ?? null;
    else if (threads) e.rollout = null;
    const rollout = e.rollout ? rolloutState(e.rollout) : null;
    const usage = rollout?.usage ?? null;
    const told = thread ? threadActivity(thread) : null;
    const prev = e.state;
    if (told) {
      const since = prev && prev.activity === told.activity && prev.cue === told.cue ? prev.since : now;
      return { ...told, since, source: 'app-server', usage };
    }
    const turn = rollout?.turn;
    if (!turn) return null;
    return {
      activity: turn.running ? 'working' : 'waiting',
      cue: turn.running ? 'interrupt-hint' : 'prompt',
      since: turn.at,
      source: 'rollout',
      usage,
    };
  }

  stateOf(key: string): AgentState | null {
    return this.panes.get(key)?.state ?? null;
  }

  /** Everything a member shows from here, to tell whether a refresh changed it. */
  private key(): string {
    const parts: string[] = [...this.problems];
    for (const [k, e] of this.panes) {
      const s = e.state;
      parts.push(s ? `${k}|${s.activity}|${s.cue}|${s.source}|${s.since}|${s.usage?.used}` : `${k}|-`);
    }
    return parts.join('\n');
  }
}
