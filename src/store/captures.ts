/**
 * The store side of pane captures: which member panes to capture on a tick (the selected run's
 * every tick, every other run's every few ticks), what each capture says the member is doing, and
 * the text the preview shows. One capture round is one tmux call (src/tmux/capture.ts); the
 * activity it reads is laid over the snapshot without touching how runs are read.
 */
import type { AppContext } from '../context.js';
import type { Member, Run, Snapshot } from '../model.js';
import type { PaneInfo } from '../tmux/client.js';
import type { TmuxClient } from '../tmux/client.js';
import { capturePanes } from '../tmux/capture.js';
import type { PaneCapture } from '../tmux/capture.js';
import { TmuxError } from '../tmux/errors.js';
import { swarmClient } from '../tmux/swarm.js';
import type { SwarmServer } from '../tmux/swarm.js';
import { sanitize } from '../text.js';
import type { PaneReading } from './pane-reading.js';
import { stateHome } from '../config/config.js';
import { HookEvents, hookEventsFile } from './hook-events.js';
import type { HookState } from './hook-events.js';
import { transcriptUsage } from '../systems/claude-teams/transcript.js';
import { readPane } from './pane-reading.js';
import { readPrompt } from './prompt-reading.js';
import type { PanePrompt } from './prompt-reading.js';
import type { HeldRequest } from './held-requests.js';
import { applyEdit, deltaFrom, recordDelta } from './delta.js';
import type { SnapshotDelta } from './delta.js';
import { buildSnapshot } from './snapshot.js';
import type { SnapshotStore } from './types.js';

/** Panes of runs other than the selected one are captured on every this-many-th tick. */
export const OTHERS_EVERY = 5;
/**
 * Output that changed this recently still counts as moving: agents print in bursts, and a pane
 * captured between two bursts is not idle yet.
 */
export const MOVING_MS = 12_000;
/** Lines of scrollback kept per capture (what the preview can scroll back through). */
export const CAPTURE_HISTORY = 200;

/** What tower last saw in one pane. */
export interface PaneLook {
  /** The capture with its SGR escapes (the preview sanitizes it as it draws). */
  text: string;
  reading: PaneReading;
  /** The prompt the pane shows when it asks a question (its options, for answering from tower). */
  prompt?: PanePrompt | null;
  /** When the reading's activity began, epoch ms. */
  since: number;
  /** When the text last changed (0: not seen changing yet), epoch ms. */
  movedAt: number;
}

/**
 * A pane's key among captures: its id on tower's own server (`%3`), `<server>/%3` on a Claude Code
 * swarm server. Pane ids repeat across servers; keys do not.
 */
export function paneKey(paneId: string, server: string | null | undefined): string {
  return server ? `${server}/${paneId}` : paneId;
}

/** The server and pane id of a key. */
export function splitPaneKey(key: string): { server: string | null; paneId: string } {
  const at = key.lastIndexOf('/');
  return at < 0 ? { server: null, paneId: key } : { server: key.slice(0, at), paneId: key.slice(at + 1) };
}

/** The key of a member's pane, or null when it has none or its server is unknown. */
export function memberPaneKey(m: Member): string | null {
  if (!m.paneId || m.tmuxServerUnknown !== undefined) return null;
  return paneKey(m.paneId, m.tmuxServer);
}

/** The keys of every pane in the lists that is not dead. */
function aliveKeys(panes: readonly PaneInfo[], swarms: readonly SwarmServer[]): Set<string> {
  const keys = new Set(panes.filter((p) => !p.dead).map((p) => p.paneId));
  for (const s of swarms) for (const p of s.panes) if (!p.dead) keys.add(paneKey(p.paneId, s.name));
  return keys;
}

/**
 * The member panes worth capturing (as paneKey keys): alive by liveness (with no tmux server to ask
 * nothing is, and nothing is captured), and still alive in the newest pane lists when there are some.
 */
export function memberPanes(runs: readonly Run[], panes: readonly PaneInfo[] | null, swarms: readonly SwarmServer[] = []): string[] {
  const alive = panes ? aliveKeys(panes, swarms) : null;
  const ids = new Set<string>();
  for (const r of runs) {
    for (const m of r.members) {
      const key = m.state === 'alive' ? memberPaneKey(m) : null;
      if (key !== null && (alive === null || alive.has(key))) ids.add(key);
    }
  }
  return [...ids];
}

/** Pane captures and their readings, outside React; `version` moves when anything shown changed. */
export class PaneWatch {
  private looks = new Map<string, PaneLook>();
  private focused: string | null = null;
  private ticks = 0;
  private listeners = new Set<() => void>();
  private version = 0;
  /** The last capture round's failure (a server that hangs), or null. */
  problem: string | null = null;

  constructor(
    private readonly tmux: TmuxClient,
    private readonly now: () => number = Date.now,
    /** Claude Code's hook events, the first source of activity where they speak. */
    readonly hooks: HookEvents | null = null,
    /** The environment that says where swarm servers' sockets are; null: their panes are not captured. */
    private readonly swarmEnv: NodeJS.ProcessEnv | null = null,
  ) {}

  // Hook events name a pane by its id alone (TMUX_PANE): they speak for tower's own server's panes only.

  /** The transcript hooks named for a pane's agent (by paneKey), or null. */
  transcriptOf(key: string): string | null {
    return key.includes('/') ? null : (this.hooks?.transcriptOf(key) ?? null);
  }

  /** The permission request tower's hook holds open for a pane (by paneKey), or null. */
  heldRequest(key: string): HeldRequest | null {
    return key.includes('/') ? null : (this.hooks?.heldFor(key, this.now()) ?? null);
  }

  /** What hooks say a pane's agent (by paneKey) is doing now, or null (the screen is read). */
  hookState(key: string): HookState | null {
    return key.includes('/') ? null : (this.hooks?.stateOf(key, this.now()) ?? null);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** The run whose panes are captured on every tick (the selected one). */
  focus(runId: string | null): void {
    this.focused = runId;
  }

  /** What tower last saw in a pane (on a swarm server when `server` is given), or undefined. */
  look(paneId: string, server?: string | null): PaneLook | undefined {
    return this.looks.get(paneKey(paneId, server));
  }

  /** What tower last saw in a member's pane, or undefined. */
  lookOf(m: Member): PaneLook | undefined {
    const key = memberPaneKey(m);
    return key === null ? undefined : this.looks.get(key);
  }

  /** One poll tick: captures the selected run's panes, and every few ticks all of them. */
  async tick(snapshot: Snapshot, panes: readonly PaneInfo[] | null, signal?: AbortSignal, swarms: readonly SwarmServer[] = []): Promise<void> {
    const everyone = this.ticks % OTHERS_EVERY === 0;
    this.ticks++;
    const runs = everyone ? snapshot.runs : snapshot.runs.filter((r) => r.id === this.focused);
    await this.round(memberPanes(runs, panes, swarms), panes, signal, swarms);
  }

  /**
   * Captures these panes (paneKey keys) and reads each: one tmux call per server, each on the
   * server the key names; panes gone from the lists are forgotten.
   */
  async round(paneIds: readonly string[], panes: readonly PaneInfo[] | null, signal?: AbortSignal, swarms: readonly SwarmServer[] = []): Promise<void> {
    let changed = this.hooks?.refresh() ?? false;
    if (panes) {
      const present = new Set([...panes.map((p) => p.paneId), ...swarms.flatMap((s) => s.panes.map((p) => paneKey(p.paneId, s.name)))]);
      for (const id of this.looks.keys()) {
        if (present.has(id)) continue;
        this.looks.delete(id);
        changed = true;
      }
    }
    if (paneIds.length > 0) {
      try {
        const captures = await this.captureAll(paneIds, signal);
        this.problem = null;
        const now = this.now();
        for (const [id, cap] of captures) {
          if (!cap.ok) {
            changed = this.looks.delete(id) || changed;
            continue;
          }
          const prev = this.looks.get(id);
          const movedAt = prev && prev.text !== cap.text ? now : (prev?.movedAt ?? 0);
          const moving = movedAt > 0 && now - movedAt < MOVING_MS;
          if (prev && prev.text === cap.text && (prev.reading.cue !== 'output-moving' || moving)) continue;
          const plain = sanitize(cap.text);
          const reading = readPane(plain, moving, cap.command);
          const since = prev && prev.reading.activity === reading.activity ? prev.since : now;
          const prompt = reading.cue === 'question' ? readPrompt(plain) : null;
          this.looks.set(id, { text: cap.text, reading, since, movedAt, prompt });
          changed = true;
        }
      } catch (err) {
        // No server is not a fault of its own: liveness already says every member is unknown.
        if (err instanceof TmuxError && err.kind === 'no-server') this.problem = null;
        else this.problem = err instanceof Error ? err.message : String(err);
      }
    }
    if (!changed) return;
    this.version++;
    for (const l of [...this.listeners]) l();
  }

  /** Captures keys grouped by server (one call per server, servers one after another), keyed back by paneKey. */
  private async captureAll(keys: readonly string[], signal: AbortSignal | undefined): Promise<Map<string, PaneCapture>> {
    const byServer = new Map<string | null, string[]>();
    for (const key of keys) {
      const { server, paneId } = splitPaneKey(key);
      byServer.set(server, [...(byServer.get(server) ?? []), paneId]);
    }
    const out = new Map<string, PaneCapture>();
    for (const [server, ids] of byServer) {
      const client = server === null ? this.tmux : this.swarmEnv ? swarmClient(this.swarmEnv, server, this.tmux.timeoutMs) : null;
      if (!client) continue;
      const captures = await capturePanes(client, ids, { history: CAPTURE_HISTORY, signal });
      for (const [id, cap] of captures) out.set(paneKey(id, server), cap);
    }
    return out;
  }
}

/** A member with the activity its pane shows (unknown without a capture; dead and in-process members too). */
function withActivity(m: Member, watch: PaneWatch): Member {
  return withContext(activityOf(m, watch), watch);
}

/** A member's context from the transcript its hooks named (teammates too), unless it has one already. */
function withContext(m: Member, watch: PaneWatch): Member {
  if (m.state !== 'alive' || m.context) return m;
  const key = memberPaneKey(m);
  if (key === null) return m;
  const file = watch.transcriptOf(key);
  const usage = file ? transcriptUsage(file) : null;
  return usage ? { ...m, context: { usedPct: usage.usedPct, tokens: usage.used, window: usage.window }, tokens: usage.tokens } : m;
}

/** A held request as the prompt tower answers: 1 allows, 2 denies, through the hook. */
export function heldPrompt(r: HeldRequest): PanePrompt {
  const subject = [r.tool, r.subject].filter((x): x is string => x !== null);
  return { question: 'Allow this? (held by the hook for tower)', subject, options: [{ key: '1', label: 'Yes' }, { key: '2', label: 'No' }], signature: `held:${r.id}` };
}

/** The activity of a member nothing speaks for: no pane alive, no capture, no hook. */
const NO_ACTIVITY = { activity: 'unknown', activitySince: null, activitySource: null } as const;

/**
 * A member with what hooks say it is doing, else what its pane shows, and the prompt the pane shows.
 * Object.assign, not `{ ...m, activity }`: on Node 20 a spread that adds keys gives every object a
 * map of its own (slow to make, to collect and to print): 30,000 members took 0.1 s here.
 */
function activityOf(m: Member, watch: PaneWatch): Member {
  const pane = m.state === 'alive' ? memberPaneKey(m) : null;
  const look = pane ? watch.look(pane) : undefined;
  const hooked = pane ? watch.hookState(pane) : null;
  const rest = 'prompt' in m ? withoutPrompt(m) : m;
  if (!hooked && !look) return Object.assign({}, rest, NO_ACTIVITY);
  // While the hook holds a request the agent draws no dialog: the request stands in for it.
  const held = pane && hooked?.event === 'PermissionRequest' && !look?.prompt ? watch.heldRequest(pane) : null;
  const prompt = look?.prompt ? { prompt: look.prompt } : held ? { prompt: heldPrompt(held) } : {};
  if (hooked) return Object.assign({}, rest, prompt, { activity: hooked.activity, activitySince: new Date(hooked.at).toISOString(), activityCue: hooked.cue, activitySource: 'hooks' as const });
  const seen = look as PaneLook;
  return Object.assign({}, rest, prompt, { activity: seen.reading.activity, activitySince: new Date(seen.since).toISOString(), activityCue: seen.reading.cue, activitySource: 'screen' as const });
}

/** A member without the prompt an earlier capture saw. */
function withoutPrompt(m: Member): Member {
  const { prompt: _seenBefore, ...rest } = m;
  return rest;
}

/** Longer than any turn: an agent "working" this long is stuck (out of quota, at a login or trust screen). */
export const LONG_TURN_MS = 30 * 60_000;

/** A warning per member that has shown working for longer than any turn. */
export function longTurns(members: readonly Member[], now: number): string[] {
  const out: string[] = [];
  for (const m of members) {
    const since = m.activity === 'working' && m.activitySince ? Date.parse(m.activitySince) : NaN;
    if (Number.isFinite(since) && now - since > LONG_TURN_MS) {
      out.push(`${m.name} has shown working for ${Math.floor((now - since) / 60_000)} min, longer than any turn: out of quota, or at a login or trust screen?`);
    }
  }
  return out;
}

/**
 * A run's status with its members' activity laid over it: a run with no tasks that its reader could
 * only call idle (a Claude team whose tasks are off or deleted once done: Claude Code no longer gives
 * newer models the task tools by default) is running while a member works, and waiting while one
 * waits at its prompt. Any other status is the reader's.
 */
export function statusWithActivity(run: Run, members: readonly Member[]): Run['status'] {
  if (run.status !== 'idle' || run.tasks.length > 0) return run.status;
  if (members.some((m) => m.activity === 'working')) return 'running';
  if (members.some((m) => m.activity === 'waiting')) return 'waiting';
  return run.status;
}

/** Whether no member of a run has a pane alive: then nothing captured or hooked can speak for any of them. */
function noneAlive(run: Run): boolean {
  for (const m of run.members) if (m.state === 'alive') return false;
  return true;
}

/** Lays activity over a snapshot's members; runs whose members read the same keep their object. */
export class ActivityOverlay {
  /** The runs with a member alive, by id: what their members read as, and the run laid over. */
  private cache = new Map<string, { inner: Run; key: string; out: Run }>();
  /**
   * Runs with no member alive read "unknown" for good, whatever the captures say: laid over once per
   * run object. On a box of 10,000 ended teams this is what keeps a snapshot's overlay near free.
   */
  private still = new WeakMap<Run, Run>();
  private last: { inner: Snapshot; version: number; out: Snapshot } | null = null;

  constructor(private readonly watch: PaneWatch) {}

  apply(inner: Snapshot): Snapshot {
    const version = this.watch.getVersion();
    const last = this.last;
    if (last && last.inner === inner && last.version === version) return last.out;
    // Made from the last snapshot with the captures as they were: only the runs that came are laid over.
    const delta = last && last.version === version ? deltaFrom(last.inner, inner) : null;
    const out = (last && delta && this.applyDelta(last.out, inner, delta)) || this.applyAll(inner);
    this.last = { inner, version, out };
    return out;
  }

  /** Every run laid over again. */
  private applyAll(inner: Snapshot): Snapshot {
    const next = new Map<string, { inner: Run; key: string; out: Run }>();
    const runs = inner.runs.map((run) => this.layOver(run, next));
    this.cache = next;
    const prevOut = this.last?.out;
    const same = prevOut && prevOut.problems === inner.problems && prevOut.runs.length === runs.length && runs.every((r, i) => r === prevOut.runs[i]);
    return same ? prevOut : { ...inner, runs };
  }

  /**
   * The runs that came laid over, the others kept in their places (the delta's edit); null when a
   * run kept from before would read otherwise now (a turn grew too long): then every run is laid over.
   */
  private applyDelta(prevOut: Snapshot, inner: Snapshot, delta: SnapshotDelta): Snapshot | null {
    const removed = new Set(delta.removed);
    const cache = new Map(this.cache);
    for (const [id, c] of this.cache) {
      if (removed.has(c.inner)) {
        cache.delete(id);
        continue;
      }
      const probe = new Map<string, { inner: Run; key: string; out: Run }>();
      if (this.layOver(c.inner, probe) !== c.out) return null;
    }
    const made = new Map<Run, Run>();
    const runs = applyEdit(prevOut.runs, delta.edit, (run) => {
      const out = this.layOver(run, cache);
      made.set(run, out);
      return out;
    });
    this.cache = cache;
    const out = { ...inner, runs };
    const removedOut = delta.edit.removeAt.map((i) => prevOut.runs[i] as Run);
    recordDelta(out, { prev: prevOut, removed: removedOut, added: delta.added.map((r) => made.get(r) as Run), edit: { removeAt: delta.edit.removeAt, insert: delta.edit.insert.map(({ at, run }) => ({ at, run: made.get(run) as Run })) } });
    return out;
  }

  /** One run laid over; a run with a member alive is noted in `cache` (by id). */
  private layOver(run: Run, cache: Map<string, { inner: Run; key: string; out: Run }>): Run {
    if (noneAlive(run)) {
      let out = this.still.get(run);
      if (!out) {
        out = { ...run, members: run.members.map((m) => withActivity(m, this.watch)) };
        this.still.set(run, out);
      }
      return out;
    }
    const members = run.members.map((m) => withActivity(m, this.watch));
    const stuck = longTurns(members, Date.now());
    const key = `${members.map((m) => `${m.activity}|${m.activitySince}|${m.activityCue ?? ''}|${m.activitySource ?? ''}|${m.prompt?.signature ?? ''}|${m.context?.tokens ?? ''}`).join('\n')}\n${stuck.join('\n')}`;
    const prev = this.cache.get(run.id);
    const status = statusWithActivity(run, members);
    const out =
      prev && prev.inner === run && prev.key === key
        ? prev.out
        : stuck.length
          ? { ...run, status, members, warnings: [...(run.warnings ?? []), ...stuck] }
          : { ...run, status, members };
    cache.set(run.id, { inner: run, key, out });
    return out;
  }
}

/** The live store with activity laid over it: listeners hear both the store and the captures. */
export function withPaneActivity(store: SnapshotStore, watch: PaneWatch): SnapshotStore {
  const overlay = new ActivityOverlay(watch);
  return {
    subscribe(listener) {
      const a = store.subscribe(listener);
      const b = watch.subscribe(listener);
      return () => {
        a();
        b();
      };
    },
    getSnapshot: () => overlay.apply(store.getSnapshot()),
    start: () => store.start(),
    stop: () => store.stop(),
    refresh: (runId) => store.refresh(runId),
  };
}

/** One capture round of every member pane, laid over a snapshot: what `tower status` shows. */
export async function snapshotWithActivity(tmux: TmuxClient, snapshot: Snapshot, hooks: HookEvents | null = null, swarmEnv: NodeJS.ProcessEnv | null = null): Promise<Snapshot> {
  const watch = new PaneWatch(tmux, Date.now, hooks, swarmEnv);
  await watch.round(memberPanes(snapshot.runs, null), null);
  const out = new ActivityOverlay(watch).apply(snapshot);
  if (!watch.problem) return out;
  return { ...out, problems: [...out.problems, { file: null, message: `tmux: ${watch.problem}; member activity is unknown` }] };
}

/** This box read once, with one capture round for each member's activity when asked (`tower status`). */
export async function readThisBox(ctx: AppContext, opts: { activity?: boolean; now?: number } = {}): Promise<Snapshot> {
  const snapshot = await buildSnapshot(ctx, opts.now === undefined ? {} : { now: opts.now });
  return opts.activity ? snapshotWithActivity(ctx.tmux, snapshot, new HookEvents(hookEventsFile(stateHome(ctx.env))), ctx.env) : snapshot;
}
