/**
 * The store side of pane captures: which member panes to capture on a tick (the selected run's
 * every tick, every other run's every few ticks; src/store/pane-keys.ts), what each capture says the
 * member is doing (src/store/capture-reading.ts), and the text the preview shows. One capture round
 * is one tmux call per server (src/tmux/capture.ts); the activity it reads is laid over the snapshot
 * (src/store/activity-overlay.ts) without touching how runs are read.
 */
import path from 'node:path';
import type { Member, Run, Snapshot } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import { socketFile } from '../tmux/client.js';
import type { TmuxClient } from '../tmux/client.js';
import { capturePanes } from '../tmux/capture.js';
import type { PaneCapture } from '../tmux/capture.js';
import { TmuxError } from '../tmux/errors.js';
import { swarmClient, tmuxSocketDir } from '../tmux/swarm.js';
import type { SwarmServer } from '../tmux/swarm.js';
import { cappedLine } from '../text/sanitize.js';
import type * as AgentModules from '../agents/pane-process.js';
import type { AgentState, ServerReading } from '../agents/types.js';
import type { AgentServers } from './agent-servers.js';
import { agents, cliOf, nextLook, readsTheSame } from './capture-reading.js';
import type { HookEvents, HookState } from './hook-events.js';
import type { HeldRequest } from './held-requests.js';
import { fromServer } from './held-requests.js';
import { LookChanges } from './look-changes.js';
import type { PaneLook } from './pane-looks.js';
import { memberPaneKey, memberPanes, paneKey, splitPaneKey } from './pane-keys.js';
import type { SessionBook, SessionState } from './session-book.js';

export type { PaneLook, PaneLooks } from './pane-looks.js';

/** Panes of runs other than the selected one are captured on every this-many-th tick. */
export const OTHERS_EVERY = 5;

/** The most characters of a session-file or hook-event read error shown on its problem row. */
const SOURCE_PROBLEM_CHARS = 200;

/** Lines of scrollback kept per capture (what the preview can scroll back through). */
export const CAPTURE_HISTORY = 200;
/** The least time between two reads of the session files and hook events by a streamed pane's captures. */
export const STREAMED_SOURCES_MS = 1000;

/** Pane captures and their readings, outside React; `version` moves when anything shown changed. */
export class PaneWatch {
  private looks = new Map<string, PaneLook>();
  private focused: string | null = null;
  private ticks = 0;
  private sourcesReadAt = -Infinity;
  private listeners = new Set<() => void>();
  private version = 0;
  private readonly changes = new LookChanges();
  /**
   * The capture a pane's own control client gives, for the pane streamed now (undefined: none):
   * the tick takes it there too, with no process of its own.
   */
  viaOf?: (key: string) => ((history: number) => Promise<PaneCapture | null>) | undefined;
  /** The last capture round's failure (a server that hangs), or null. */
  problem: string | null = null;
  /** Why the hook events could not be read, or null. */
  hooksProblem: string | null = null;
  /** The own sources (a server, a log of the turn) of the CLIs panes run, once one does. */
  private agentSources: AgentModules.AgentSources | null = null;

  constructor(
    private readonly tmux: TmuxClient,
    private readonly now: () => number = Date.now,
    /** Claude Code's hook events, the first source of activity where they speak. */
    readonly hooks: HookEvents | null = null,
    /** The environment that says where swarm servers' sockets are; null: their panes are not captured. */
    private readonly swarmEnv: NodeJS.ProcessEnv | null = null,
    /** Claude Code's own session files: the first source of activity, before hooks and the screen. */
    readonly sessions: SessionBook | null = null,
    /**
     * Whether the servers of CLIs that serve one are followed (`live`), read once for a one-shot
     * command (`once`), or not at all (null).
     */
    private readonly serverMode: 'live' | 'once' | null = null,
  ) {}

  /** Made with the first pane whose CLI serves (a start with none loads nothing of it). */
  private servers: AgentServers | null = null;

  /** What the server of a pane's CLI (by paneKey) says, where it serves one and is reached; else null. */
  serverState(key: string): ServerReading | null {
    return this.servers?.read(key) ?? null;
  }

  /** Lets every followed server go (the store stops; a one-shot read is done). */
  close(): void {
    this.servers?.close();
  }

  /** A followed server said something: the pane's member is laid over again. */
  private serverChanged(key: string): void {
    this.version++;
    this.changes.note(this.version, new Set([key]));
    for (const l of [...this.listeners]) l();
  }

  /** What a Claude Code session file says the agent in a pane (by paneKey) is doing, or null. */
  sessionState(key: string): SessionState | null {
    return this.sessions?.stateOf(key) ?? null;
  }

  /** What a CLI's own source (its server, its log of the turn) says the agent in a pane (by paneKey) is doing, or null. */
  agentState(key: string): AgentState | null {
    return this.agentSources?.stateOf(this.looks.get(key)?.agent, key) ?? null;
  }

  /** The same as a member's activity (null: none), the screen's question winning over a rollout's "working". */
  agentActivity(key: string) {
    const look = this.looks.get(key);
    return this.agentSources?.activityOf(look?.agent, key, look?.reading.cue) ?? null;
  }

  /** What the CLIs' own sources (their servers too) could not read, one line each. */
  agentProblems(): string[] {
    return [...(this.agentSources?.problems() ?? []), ...(this.servers?.problems() ?? [])];
  }

  /** The socket of tower's own server, as hooks name it ($TMUX), made once. */
  private ownSocket: string | null = null;

  /**
   * The socket path and pane id of a pane key: hook events and held requests name the server they
   * came from ($TMUX's socket) beside the pane, and are matched on both.
   */
  private hookAddress(key: string): { socket: string; paneId: string; own: boolean } {
    const { server, paneId } = splitPaneKey(key);
    const env = this.swarmEnv ?? process.env;
    if (server === null) {
      this.ownSocket ??= socketFile(this.tmux.socket, env);
      return { socket: this.ownSocket, paneId, own: true };
    }
    return { socket: path.join(tmuxSocketDir(env), server), paneId, own: false };
  }

  /** The transcript hooks named for a pane's agent (by paneKey), or null. */
  transcriptOf(key: string): string | null {
    const a = this.hookAddress(key);
    const hooked = this.hooks?.transcriptOf(a.socket, a.paneId, a.own) ?? null;
    return hooked ?? this.sessions?.stateOf(key)?.transcript ?? null;
  }

  /** The permission requests tower's hook holds open for a pane (by paneKey), oldest first. */
  heldRequests(key: string): HeldRequest[] {
    if (!this.hooks) return [];
    const a = this.hookAddress(key);
    return this.hooks.heldFor(a.socket, a.paneId, this.now());
  }

  /** What hooks say a pane's agent (by paneKey) is doing now, or null (the screen is read). */
  hookState(key: string): HookState | null {
    if (!this.hooks) return null;
    const a = this.hookAddress(key);
    return this.hooks.stateOf(a.socket, a.paneId, this.now(), a.own);
  }

  /**
   * The requests held now that belong to none of these panes (by paneKey): from another tmux
   * server, from a pane no member is in, or naming no server at all. Never shown as a member's.
   */
  unattributedHeld(keys: Iterable<string>): HeldRequest[] {
    if (!this.hooks) return [];
    const held = this.hooks.heldNow(this.now());
    if (held.length === 0) return held;
    const panes = [...keys].map((k) => this.hookAddress(k));
    return held.filter((r) => !panes.some((a) => a.paneId === r.paneId && fromServer(r, a.socket)));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /**
   * The panes (by paneKey) whose looks changed after version `since`, or null when anything may have
   * (hook events or session files read anew, a round of every run, a version no longer kept).
   */
  changedSince(since: number): Set<string> | null {
    return this.changes.since(since, this.version);
  }

  /** The run whose panes are captured on every tick (the selected one). */
  focus(runId: string | null): void {
    this.focused = runId;
  }

  /** What tower last saw in a pane (on a swarm server when `server` is given), or undefined. */
  look(paneId: string, server?: string | null): PaneLook | undefined {
    return this.looks.get(paneKey(paneId, server));
  }

  /** What tower last saw in a member's pane (none for a run of another box), or undefined. */
  lookOf(m: Member, run?: Run | null): PaneLook | undefined {
    const key = run?.host ? null : memberPaneKey(m);
    return key === null ? undefined : this.looks.get(key);
  }

  /** The client of tower's own server (null) or of a swarm server by name; null when out of reach. */
  clientOf(server: string | null): TmuxClient | null {
    if (server === null) return this.tmux;
    return this.swarmEnv ? swarmClient(this.swarmEnv, server, this.tmux.timeoutMs) : null;
  }

  /** One poll tick: captures the selected run's panes, and every few ticks all of them. */
  async tick(
    snapshot: Snapshot,
    panes: readonly PaneInfo[] | null,
    signal?: AbortSignal,
    swarms: readonly SwarmServer[] = [],
  ): Promise<void> {
    const everyone = this.ticks % OTHERS_EVERY === 0;
    this.ticks++;
    const runs = everyone ? snapshot.runs : snapshot.runs.filter((r) => r.id === this.focused);
    await this.capture(memberPanes(runs, panes, swarms), panes, signal, swarms, everyone);
  }

  /**
   * Captures these panes (paneKey keys) and reads each: one tmux call per server, each on the
   * server the key names; panes gone from the lists are forgotten.
   */
  round(
    paneIds: readonly string[],
    panes: readonly PaneInfo[] | null,
    signal?: AbortSignal,
    swarms: readonly SwarmServer[] = [],
    via?: (history: number) => Promise<PaneCapture | null>,
  ): Promise<void> {
    return this.capture(paneIds, panes, signal, swarms, false, via);
  }

  /**
   * A round; `wide`: what it changes counts as a change of every member, so the overlay lays every
   * run over again (what moves with the clock alone, a turn grown too long or a transcript grown, is
   * read again then: every OTHERS_EVERY ticks when anything changed, however often one pane prints).
   */
  private async capture(
    paneIds: readonly string[],
    panes: readonly PaneInfo[] | null,
    signal: AbortSignal | undefined,
    swarms: readonly SwarmServer[],
    wide: boolean,
    via?: (history: number) => Promise<PaneCapture | null>,
  ): Promise<void> {
    /** The panes whose looks changed; null: anything may have (hook events and session files speak for any pane). */
    let touched: Set<string> | null = new Set<string>();
    let changed = false;
    // A pane streamed while it prints is captured up to ten times a second: the session files and
    // hook events are read with it at most once a STREAMED_SOURCES_MS then (the poll tick reads them too).
    if (!via || this.now() - this.sourcesReadAt >= STREAMED_SOURCES_MS) {
      this.sourcesReadAt = this.now();
      changed = this.readSources();
    }
    if (changed || wide) touched = null;
    if (panes) {
      const present = new Set([
        ...panes.map((p) => p.paneId),
        ...swarms.flatMap((s) => s.panes.map((p) => paneKey(p.paneId, s.name))),
      ]);
      for (const id of this.looks.keys()) {
        if (present.has(id)) continue;
        this.looks.delete(id);
        this.servers?.drop(id);
        touched?.add(id);
        changed = true;
      }
    }
    const problemBefore = this.problem;
    if (paneIds.length > 0) {
      try {
        const read = await this.readRound(await this.captureAll(paneIds, signal, via), touched);
        changed = read || changed;
        // Cleared once the round is read whole: reading may wait on a CLI's module loading, and the
        // problem row must not go before the activity it was hiding comes back.
        this.problem = null;
      } catch (err) {
        // No server is not a fault of its own: liveness already says every member is unknown.
        if (err instanceof TmuxError && err.kind === 'no-server') this.problem = null;
        else this.problem = err instanceof Error ? err.message : String(err);
      }
    }
    // What the CLIs' own sources say speaks for any of their panes (asked once a pane runs an agent).
    this.agentSources ??= this.looks.size > 0 ? new (await agents()).AgentSources() : null;
    if (await this.agentSources?.refresh(this.looks, this.now())) {
      changed = true;
      touched = null;
    }
    // A failure that comes or goes is news to the screen (its problem row) though no pane changed.
    if (this.problem !== problemBefore) changed = true;
    if (!changed) return;
    this.version++;
    this.changes.note(this.version, touched);
    for (const l of [...this.listeners]) l();
  }

  /** Reads a round's captures into the looks (a pane that failed forgotten); whether any look changed. */
  private async readRound(captures: Map<string, PaneCapture>, touched: Set<string> | null): Promise<boolean> {
    let changed = false;
    const now = this.now();
    for (const [id, cap] of captures) {
      if (!cap.ok) {
        this.servers?.drop(id);
        if (this.looks.delete(id)) {
          touched?.add(id);
          changed = true;
        }
        continue;
      }
      const prev = this.looks.get(id);
      const next = await nextLook(prev, cap, now);
      if (!next) continue;
      await this.followServer(id, cap, next.cli);
      this.looks.set(id, next.look);
      // A pane that only printed more reads the same: its text is the preview's, and no run's
      // activity changes with it (a streamed pane is captured up to ten times a second).
      if (!prev || !readsTheSame(prev, next.look) || prev.pid !== next.look.pid) touched?.add(id);
      changed = true;
    }
    return changed;
  }

  /** Follows the server of the CLI a pane runs, where it serves one (and servers are followed). */
  private async followServer(id: string, cap: { command: string; pid?: number | null }, cli: unknown): Promise<void> {
    const found = this.serverMode && cli ? await cliOf(cap) : null;
    if (found?.ways.server) {
      const { AgentServers } = await import('./agent-servers.js');
      this.servers ??= new AgentServers((key) => this.serverChanged(key), this.serverMode!);
      // The first tick waits for a new server's first answer, as a one-shot read does: the first
      // snapshot (`tower serve` sends it whole, a remote `tower status` prints it) says what it says.
      await this.servers.see(id, found.cli, found.ways, cap.pid, found.paneArgv, this.ticks <= 1);
    } else this.servers?.drop(id);
  }

  /** Reads the session files and hook events again; whether anything they say (or their problem) changed. */
  private readSources(): boolean {
    // The hook events are one source among the captures: their failure never stops the panes' reading.
    // It is one row, each source's message on one line and capped; it goes once both read again.
    let changed = false;
    const failed: string[] = [];
    try {
      changed = this.sessions?.refresh() ?? false;
    } catch (err) {
      failed.push(
        `session files: ${cappedLine(err instanceof Error ? err.message : String(err), SOURCE_PROBLEM_CHARS)}`,
      );
    }
    try {
      changed = (this.hooks?.refresh() ?? false) || changed;
    } catch (err) {
      failed.push(`hook events: ${cappedLine(err instanceof Error ? err.message : String(err), SOURCE_PROBLEM_CHARS)}`);
    }
    const hooksProblem = failed.length > 0 ? failed.join('; ') : null;
    if (hooksProblem !== this.hooksProblem) {
      this.hooksProblem = hooksProblem;
      changed = true;
    }
    return changed;
  }

  /**
   * Captures keys grouped by server (one call per server, servers one after another), keyed back by
   * paneKey; one key with `via`, or the key streamed now: asked of its control client first (no
   * process), as usual if it gives none.
   */
  private async captureAll(
    keys: readonly string[],
    signal: AbortSignal | undefined,
    via?: (history: number) => Promise<PaneCapture | null>,
  ): Promise<Map<string, PaneCapture>> {
    const out = new Map<string, PaneCapture>();
    const rest: string[] = [];
    for (const key of keys) {
      const ask = keys.length === 1 && via ? via : this.viaOf?.(key);
      const cap = ask ? await ask(CAPTURE_HISTORY) : null;
      if (cap) out.set(key, cap);
      else rest.push(key);
    }
    const byServer = new Map<string | null, string[]>();
    for (const key of rest) {
      const { server, paneId } = splitPaneKey(key);
      byServer.set(server, [...(byServer.get(server) ?? []), paneId]);
    }
    for (const [server, ids] of byServer) {
      const client = this.clientOf(server);
      if (!client) continue;
      const captures = await capturePanes(client, ids, { history: CAPTURE_HISTORY, signal });
      for (const [id, cap] of captures) out.set(paneKey(id, server), cap);
    }
    return out;
  }
}
