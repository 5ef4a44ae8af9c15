/**
 * The live snapshot for the control room and `tower watch`: chokidar on the state directories,
 * one `tmux list-panes -a` per poll tick, re-reading only the runs a change touches.
 *
 * Everything funnels into one frame: events mark what is dirty, a frame timer (~16 ms) coalesces
 * bursts (an atomic write is several events), re-reads, and emits at most once. Unchanged runs keep
 * their object identity (compared by their JSON), and the snapshot object stays the same when
 * nothing changed, so `useSyncExternalStore` renders only on real change.
 */
import type { AppContext } from '../context/context.js';
import type { Problem, Snapshot } from '../model/model.js';
import { cleanDirty, hasWork } from './dirty.js';
import { FRAME_MS, FULL_REFRESH_MS } from './live-options.js';
import type { LiveStoreOptions } from './live-options.js';
import { LiveReads } from './live-reads.js';
import { PaneTracker } from './pane-tracker.js';
import { SnapshotPublisher } from './publisher.js';
import { defaultReaders } from './readers.js';
import { listPanesForSnapshot, swarmScannerFor } from './snapshot.js';
import type { PaneListing } from './snapshot.js';
import type { SwarmScanner } from '../tmux/swarm.js';
import { deferredWork, onDeferredDone } from '../systems/deferred.js';
import { cappedLine } from '../text/sanitize.js';
import type { SnapshotStore } from './types.js';
import { HookLeads } from './hook-leads.js';
import { hookEventsFile } from './hook-events.js';
import { stateHome } from '../config/config.js';
import { socketFile } from '../tmux/client.js';
import { loadLoneAgents } from './lone-agents.js';
import type { LoneAgentLister } from './lone-agents.js';

export { FRAME_MS, FULL_REFRESH_MS } from './live-options.js';
export type { LiveStoreOptions } from './live-options.js';

/** Creates the live store; `start()` reads once and begins watching and polling. */
export function createLiveStore(ctx: AppContext, opts: LiveStoreOptions = {}): SnapshotStore {
  return new LiveStore(ctx, opts);
}

class LiveStore implements SnapshotStore {
  private readonly now: () => number;
  private readonly onPoll: LiveStoreOptions['onPoll'];
  private readonly listeners = new Set<() => void>();

  private readonly paneTracker = new PaneTracker();
  /** Claude Code's swarm servers, found again every tick; dead sockets are remembered between ticks. */
  private readonly swarmScanner: SwarmScanner;
  /** The teams and runs read, what is dirty, and the watch that follows them. */
  private readonly reading: LiveReads;

  private problems = { watch: null as Problem | null, internal: null as Problem | null, poll: null as Problem | null };
  private readonly publisher: SnapshotPublisher;
  /** Where Claude Code sessions' hooks last ran: a lead with no pane in its team file is seated by them. */
  private readonly hookLeads: HookLeads;

  private frameTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private abort = new AbortController();
  private lastFullAt = 0;
  private started: Promise<void> | null = null;
  /** Set once the first full read is published; frames before that would publish half a snapshot. */
  private ready = false;
  private stopped = false;
  private loneAgents: LoneAgentLister | null = null;
  private loneAgentsLoading = false;
  private offDeferred: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    opts: LiveStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const readers = opts.readers ?? defaultReaders;
    this.reading = new LiveReads(ctx, this.paneTracker, readers, this.now, opts.home ?? (ctx.env.HOME || undefined));
    this.onPoll = opts.onPoll;
    this.publisher = new SnapshotPublisher(readers, this.now);
    this.swarmScanner = swarmScannerFor(ctx);
    this.hookLeads = new HookLeads(hookEventsFile(stateHome(ctx.env)));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): Snapshot => this.publisher.snapshot;

  start(): Promise<void> {
    this.started ??= this.begin();
    return this.started;
  }

  private async begin(): Promise<void> {
    // A reader that waited for a module loaded on demand (a handoff's Markdown parser) reads again once it is there.
    this.offDeferred = onDeferredDone((scope) => {
      if (this.stopped) return;
      // Data fetched for polled runs (an operator's answer) re-reads those runs only.
      if (scope === 'polled') this.rereadPolled();
      else this.refresh();
    });
    const listing = await listPanesForSnapshot(this.ctx, this.abort.signal, this.swarmScanner);
    if (this.stopped) return;
    this.takePanes(listing);
    this.reading.readTeamsFully();
    this.reading.rediscover();
    await this.startWatching();
    if (this.stopped) return;
    // Sources are read after the watcher is ready, so no change between read and watch is lost.
    this.reading.readEverything();
    // A reader that waited for a module loaded on demand (a handoff's parser) is read again before the
    // first snapshot is published, so the first snapshot is whole, as `tower status`'s is.
    const waiting = deferredWork();
    if (waiting) {
      await waiting;
      if (this.stopped) return;
      this.reading.readEverything();
    }
    this.lastFullAt = this.now();
    // What discovery and the first read covered; team events since the teams were read stay dirty.
    this.reading.dirty.sources.clear();
    this.reading.dirty.rediscover = false;
    this.assemble();
    this.ready = true;
    // Changes seen while the first read ran are applied in the first frame.
    if (hasWork(this.reading.dirty)) this.schedule();
    await this.afterPoll();
    this.pollLater();
  }

  /**
   * The poll hook (pane captures). Its failure must not stop polling, nor go unseen: previews,
   * prompts and activity would stop moving while the screen looks fine. It is one problem row
   * (the newest failure's message, capped), gone after the next tick that succeeds; the next tick
   * comes at the usual interval either way.
   */
  private async afterPoll(): Promise<void> {
    if (!this.onPoll || this.stopped) return;
    let failure: Problem | null = null;
    try {
      await this.onPoll(this.paneTracker.panes, this.abort.signal, this.paneTracker.swarms);
    } catch (err) {
      failure = pollFailure(err);
    }
    // A failure stop() caused (its abort) is no problem of the panes.
    if (this.stopped || sameProblem(failure, this.problems.poll)) return;
    this.problems.poll = failure;
    this.reading.dirty.assemble = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.offDeferred?.();
    this.abort.abort();
    if (this.frameTimer) clearTimeout(this.frameTimer);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.frameTimer = this.pollTimer = null;
    await this.reading.stopWatching();
  }

  /** Reads again the runs whose data is fetched (an answer came). */
  private rereadPolled(): void {
    if (this.reading.markPolled()) this.schedule();
  }

  refresh(runId?: string): void {
    const origin = runId === undefined ? undefined : this.publisher.origins.get(runId);
    const dirty = this.reading.dirty;
    if (!origin) dirty.full = true;
    else if ('source' in origin) dirty.sources.add(origin.source);
    else dirty.teams.add(origin.team);
    this.schedule();
  }

  // ---- input: tmux polling and file events ----

  private pollLater(): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => void this.poll(), this.ctx.config.pollIntervalMs);
  }

  /** One tick: one list-panes; the next tick is armed only after this one ends, so ticks never overlap. */
  private async poll(): Promise<void> {
    this.pollTimer = null;
    const listing = await listPanesForSnapshot(this.ctx, this.abort.signal, this.swarmScanner);
    if (this.stopped) return;
    this.takePanes(listing);
    const dirty = this.reading.dirty;
    if (this.now() - this.lastFullAt >= FULL_REFRESH_MS) dirty.full = true;
    // A state dir deleted and made again (or a project that appears under a known cwd) sends no
    // event a watcher still holds: the set of state dirs is checked every tick.
    else if (!dirty.rediscover && this.reading.sourcesMoved()) dirty.rediscover = true;
    this.reading.markForTick();
    if (hasWork(dirty)) this.schedule();
    await this.afterPoll();
    this.pollLater();
  }

  private takePanes({ panes, problem, swarms, swarmProblems, down }: PaneListing): void {
    const change = this.paneTracker.take(panes, problem, swarms, swarmProblems, down ?? null);
    // Seats are read against the servers of this poll: again when a seat or a server moved.
    if (this.hookLeads.refresh() || change.index !== undefined) {
      this.publisher.setLeadSeats(this.hookLeads.seatsOn(socketFile(this.ctx.tmux.socket, this.ctx.env), swarms));
      change.assemble = true;
    }
    if (change.index !== undefined) {
      this.publisher.setPanes(change.index);
      this.takeAgentPanes();
      // A pane of a team that ended may be alive again (or the last one died).
      this.reading.settleEnded();
    }
    if (change.assemble) this.reading.dirty.assemble = true;
    if (change.rediscover) this.reading.dirty.rediscover = true;
  }

  /**
   * Hands the panes to the listing of agents outside every run; the agent modules that tell a CLI's
   * pane load with the first pane seen (after the first frame), and the runs are assembled again then.
   */
  private takeAgentPanes(): void {
    const panes = this.paneTracker.panes;
    this.publisher.setAgentPanes(panes, this.loneAgents);
    if (this.loneAgents || this.loneAgentsLoading || !panes || panes.length === 0) return;
    this.loneAgentsLoading = true;
    void loadLoneAgents().then((listLoneAgents) => {
      if (this.stopped) return;
      this.loneAgents = listLoneAgents;
      this.publisher.setAgentPanes(this.paneTracker.panes, listLoneAgents);
      this.reading.dirty.assemble = true;
      this.schedule();
    });
  }

  private async startWatching(): Promise<void> {
    const handlers = {
      onPath: (file: string) => {
        if (this.reading.markPath(file)) this.schedule();
      },
      onError: (err: unknown) => {
        const msg = err instanceof Error ? err.message : String(err);
        this.problems.watch = {
          file: null,
          message: `file watching failed (${msg}); changes show within ${FULL_REFRESH_MS / 1000} s`,
        };
        this.reading.dirty.assemble = true;
        this.schedule();
      },
    };
    await this.reading.startWatching(handlers, this.abort.signal);
  }

  // ---- the frame ----

  private schedule(): void {
    if (this.stopped || this.frameTimer || !this.ready) return;
    this.frameTimer = setTimeout(() => this.frame(), FRAME_MS);
  }

  private frame(): void {
    this.frameTimer = null;
    if (this.stopped) return;
    try {
      if (this.reading.apply()) this.lastFullAt = this.now();
      void deferredWork();
      this.problems.internal = null;
    } catch (err) {
      // A bug must not kill the control room: show it and keep watching.
      const msg = err instanceof Error ? err.message : String(err);
      this.problems.internal = { file: null, message: `internal error while reading: ${msg}` };
    }
    this.reading.dirty = cleanDirty();
    this.assemble();
  }

  /** Publishes a new snapshot when something differs, and tells the listeners. */
  private assemble(): void {
    const reading = this.reading;
    reading.dirty.assemble = false;
    const { watch, internal, poll } = this.problems;
    const { teams, discovery } = reading.problems;
    const problems = [
      this.paneTracker.down,
      this.paneTracker.problem,
      ...this.paneTracker.swarmProblems,
      watch,
      internal,
      poll,
      ...teams,
      ...discovery,
    ].filter((p): p is Problem => p !== null);
    const touched = reading.takeTouchedTeams();
    if (!this.publisher.publish(reading.reads, reading.book.teams, problems, reading.settings(), touched)) return;
    for (const l of [...this.listeners]) l();
  }
}

/** The longest message a failed poll hook shows: an error may carry a whole pane or a stack. */
export const POLL_PROBLEM_CHARS = 200;

/** The problem row for a poll hook that failed: one line, sanitized (an error may quote a pane), capped. */
function pollFailure(err: unknown): Problem {
  const msg = cappedLine(err instanceof Error ? err.message : String(err), POLL_PROBLEM_CHARS);
  return {
    file: null,
    message:
      `reading the panes failed (${msg}): previews, prompts and activity may be out of date; ` +
      `tried again every poll`,
  };
}

function sameProblem(a: Problem | null, b: Problem | null): boolean {
  return a === b || (a !== null && b !== null && a.message === b.message && a.file === b.file);
}
