/**
 * The live snapshot for the control room and `tower watch`: chokidar on the state directories,
 * one `tmux list-panes -a` per poll tick, re-reading only the runs a change touches.
 *
 * Everything funnels into one frame: events mark what is dirty, a frame timer (~16 ms) coalesces
 * bursts (an atomic write is several events), re-reads, and emits at most once. Unchanged runs keep
 * their object identity (compared by their JSON), and the snapshot object stays the same when
 * nothing changed, so `useSyncExternalStore` renders only on real change.
 */
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { AppContext } from '../context.js';
import type { Problem, Snapshot } from '../model.js';
import { isDir } from '../files/look.js';
import type { ReadSettings } from '../systems/types.js';
import { sourceKey } from './discover.js';
import type { RunSource } from './discover.js';
import { cleanDirty, hasWork } from './dirty.js';
import { FRAME_MS, FULL_REFRESH_MS } from './live-options.js';
import type { LiveStoreOptions } from './live-options.js';
import { PaneTracker } from './pane-tracker.js';
import { SnapshotPublisher } from './publisher.js';
import { defaultReaders, mergesTeams, readSource } from './readers.js';
import type { SourceRead, SourceReaders } from './readers.js';
import { discoverSources, listPanesForSnapshot, paneSessionsOf, settingsFrom, swarmScannerFor } from './snapshot.js';
import { TeamBook } from './team-book.js';
import type { EndedChange } from './team-book.js';
import type { PaneListing } from './snapshot.js';
import type { SwarmScanner } from '../tmux/swarm.js';
import { watchStateDirs } from './state-watcher.js';
import { deferredWork, onDeferredDone } from '../systems/deferred.js';
import type { SnapshotStore } from './types.js';
import { WatchScope } from './watch-scope.js';

export { FRAME_MS, FULL_REFRESH_MS } from './live-options.js';
export type { LiveStoreOptions } from './live-options.js';

/** Creates the live store; `start()` reads once and begins watching and polling. */
export function createLiveStore(ctx: AppContext, opts: LiveStoreOptions = {}): SnapshotStore {
  return new LiveStore(ctx, opts);
}

class LiveStore implements SnapshotStore {
  private readonly now: () => number;
  private readonly readers: SourceReaders;
  private readonly home: string | undefined;
  private readonly onPoll: LiveStoreOptions['onPoll'];
  private readonly listeners = new Set<() => void>();

  private readonly paneTracker = new PaneTracker();
  /** Claude Code's swarm servers, found again every tick; dead sockets are remembered between ticks. */
  private readonly swarmScanner: SwarmScanner;
  /** The Claude teams, which ended, and their cwds. */
  private readonly book: TeamBook;
  private sources = new Map<string, RunSource>();
  private reads = new Map<string, SourceRead>();
  private watchRoots = new Set<string>();
  private claudeDirWatched = false;

  private problems = { watch: null as Problem | null, teams: [] as Problem[], discovery: [] as Problem[], internal: null as Problem | null };
  private readonly publisher: SnapshotPublisher;

  private dirty = cleanDirty();
  /** The teams re-read since the last publish (null: all of them may have changed). */
  private teamsTouched: Set<string> | null = null;
  /**
   * What to read once more at the next poll: chokidar sets up a newly added path asynchronously,
   * and a file written before it is ready would be missed (the read that made the path known came first).
   */
  private recheck = cleanDirty();
  private frameTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private abort = new AbortController();
  private watcher: FSWatcher | null = null;
  private readonly scope: WatchScope;
  private lastFullAt = 0;
  private started: Promise<void> | null = null;
  /** Set once the first full read is published; frames before that would publish half a snapshot. */
  private ready = false;
  private stopped = false;
  private offDeferred: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    opts: LiveStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.readers = opts.readers ?? defaultReaders;
    this.book = new TeamBook(ctx.claudeDir, this.readers, this.now);
    this.home = opts.home ?? (ctx.env.HOME || undefined);
    this.onPoll = opts.onPoll;
    this.publisher = new SnapshotPublisher(this.readers, this.now);
    this.scope = new WatchScope(
      ctx.claudeDir,
      (dirName) => this.book.teams.has(dirName),
      (dirName) => this.book.ended.has(dirName),
    );
    this.swarmScanner = swarmScannerFor(ctx);
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
    this.readTeamsFully();
    this.rediscover();
    await this.startWatching();
    if (this.stopped) return;
    // Sources are read after the watcher is ready, so no change between read and watch is lost.
    this.readEverything();
    // A reader that waited for a module loaded on demand (a handoff's parser) is read again before the
    // first snapshot is published, so the first snapshot is whole, as `tower status`'s is.
    const waiting = deferredWork();
    if (waiting) {
      await waiting;
      if (this.stopped) return;
      this.readEverything();
    }
    this.lastFullAt = this.now();
    // What discovery and the first read covered; team events since the teams were read stay dirty.
    this.dirty.sources.clear();
    this.dirty.rediscover = false;
    this.assemble();
    this.ready = true;
    // Changes seen while the first read ran are applied in the first frame.
    if (hasWork(this.dirty)) this.schedule();
    await this.afterPoll();
    this.pollLater();
  }

  /** The poll hook (pane captures); its failure must not stop polling. */
  private async afterPoll(): Promise<void> {
    if (this.onPoll && !this.stopped) await this.onPoll(this.paneTracker.panes, this.abort.signal, this.paneTracker.swarms).catch(() => {});
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.offDeferred?.();
    this.abort.abort();
    if (this.frameTimer) clearTimeout(this.frameTimer);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.frameTimer = this.pollTimer = null;
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
  }

  /** Reads again the runs whose data is fetched (an answer came). */
  private rereadPolled(): void {
    let any = false;
    for (const [key, read] of this.reads) {
      if (!read.polled) continue;
      this.dirty.sources.add(key);
      any = true;
    }
    if (any) this.schedule();
  }

  refresh(runId?: string): void {
    const origin = runId === undefined ? undefined : this.publisher.origins.get(runId);
    if (!origin) this.dirty.full = true;
    else if ('source' in origin) this.dirty.sources.add(origin.source);
    else this.dirty.teams.add(origin.team);
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
    if (this.now() - this.lastFullAt >= FULL_REFRESH_MS) this.dirty.full = true;
    // A state dir deleted and made again (or a project that appears under a known cwd) sends no
    // event a watcher still holds: the set of state dirs is checked every tick.
    else if (!this.dirty.rediscover && this.sourcesMoved()) this.dirty.rediscover = true;
    for (const t of this.recheck.teams) this.dirty.teams.add(t);
    for (const k of this.recheck.sources) this.dirty.sources.add(k);
    this.recheck = cleanDirty();
    // Runs read from fetched data are read again every tick; a read asks for a fetch when its data is old.
    for (const [key, read] of this.reads) if (read.polled) this.dirty.sources.add(key);
    if (hasWork(this.dirty)) this.schedule();
    await this.afterPoll();
    this.pollLater();
  }

  private takePanes({ panes, problem, swarms, swarmProblems }: PaneListing): void {
    const change = this.paneTracker.take(panes, problem, swarms, swarmProblems);
    if (change.index !== undefined) {
      this.publisher.setPanes(change.index);
      // A pane of a team that ended may be alive again (or the last one died).
      this.onEnded(this.book.settle(this.book.teams.keys(), this.livePaneIds()));
    }
    if (change.assemble) this.dirty.assemble = true;
    if (change.rediscover) this.dirty.rediscover = true;
  }

  private onFileEvent(file: string): void {
    const target = this.scope.classify(path.resolve(file));
    switch (target.kind) {
      case 'team':
        this.dirty.teams.add(target.dirName);
        break;
      case 'all-teams':
        this.dirty.allTeams = true;
        break;
      case 'source': {
        for (const [key, s] of this.sources) if (s.stateDir === target.stateDir) this.dirty.sources.add(key);
        if (target.rediscover) this.dirty.rediscover = true;
        break;
      }
      case 'rediscover':
        this.dirty.rediscover = true;
        break;
      case 'none':
        return;
    }
    this.schedule();
  }

  private async startWatching(): Promise<void> {
    const paths = [...this.watchRoots];
    this.claudeDirWatched = isDir(this.ctx.claudeDir);
    if (this.claudeDirWatched) paths.push(this.ctx.claudeDir);
    const handlers = {
      onPath: (file: string) => this.onFileEvent(file),
      onError: (err: unknown) => {
        const msg = err instanceof Error ? err.message : String(err);
        this.problems.watch = { file: null, message: `file watching failed (${msg}); changes show within ${FULL_REFRESH_MS / 1000} s` };
        this.dirty.assemble = true;
        this.schedule();
      },
    };
    const watcher = await watchStateDirs(paths, this.scope, handlers, this.abort.signal);
    // stop() may have come while chokidar got ready: then this watcher is ours to close.
    if (this.stopped) await watcher.close();
    else this.watcher = watcher;
  }

  // ---- reading ----

  private settings(): ReadSettings {
    // A change of pane cwds rediscovers, and so re-reads, every source with these.
    const panes = this.paneTracker.panes;
    return { ...settingsFrom(this.ctx.config, this.now(), this.ctx.env), paneCwds: (panes ?? []).map((p) => p.cwd), paneSessions: paneSessionsOf(panes) };
  }

  /** Reads every team again (the book keeps a team that ended while its files stay as they were). */
  private readTeamsFully(): void {
    const r = this.book.readAll(this.livePaneIds());
    this.teamsTouched = null;
    this.onEnded(r);
    this.watchTaskDirs(r.added);
    this.problems.teams = r.problems;
  }

  /** The pane ids alive now, on tower's server or any swarm server (which server is liveness's business). */
  private livePaneIds(): Set<string> {
    const live = new Set((this.paneTracker.panes ?? []).filter((p) => !p.dead).map((p) => p.paneId));
    for (const s of this.paneTracker.swarms) for (const p of s.panes) if (!p.dead) live.add(p.paneId);
    return live;
  }

  /** A team that ended loses the watches of its folders; one that woke gets them back, and is read again at the next poll. */
  private onEnded({ woke, slept }: EndedChange): void {
    if (!this.watcher) return;
    if (slept.length) this.watcher.unwatch(slept.flatMap((d) => this.book.folders(d)));
    if (woke.length) {
      this.watcher.add(woke.flatMap((d) => this.book.folders(d)).filter(isDir));
      for (const dirName of woke) this.recheck.teams.add(dirName);
    }
  }

  /**
   * Task folders of teams that became known are not watched yet (chokidar skipped them as unknown).
   * Called after the book is updated: chokidar asks `ignored` (which reads it) as it adds.
   */
  private watchTaskDirs(dirNames: readonly string[]): void {
    if (!this.watcher) return;
    for (const dirName of dirNames) {
      const team = this.book.teams.get(dirName);
      if (!team || !isDir(team.tasksDir)) continue;
      this.watcher.add(team.tasksDir);
      this.recheck.teams.add(dirName);
    }
  }

  /** Roots and state dirs from everything discovery looks at now. */
  private discover(problems: Problem[]): ReturnType<typeof discoverSources> {
    const { roots, claudeDir, discover } = this.ctx;
    const paneCwds = (this.paneTracker.panes ?? []).map((p) => p.cwd);
    return discoverSources({ roots, claudeDir, discover, home: this.home, paneCwds, teamCwds: this.book.cwds }, this.readers, problems);
  }

  /** Whether the state directories found now differ from the ones being read. */
  private sourcesMoved(): boolean {
    const { sources } = this.discover([]);
    return sources.length !== this.sources.size || sources.some((s) => !this.sources.has(sourceKey(s)));
  }

  /** Finds roots and state directories again; new sources are marked for reading, gone ones dropped. */
  private rediscover(): void {
    const problems: Problem[] = [];
    const { discovery, sources } = this.discover(problems);
    this.problems.discovery = problems;
    const next = new Map(sources.map((s) => [sourceKey(s), s] as const));
    // The roots of state dirs that (re)appeared are given to the watcher again: one that was
    // deleted and made again is a new directory the old watch does not see.
    const reappeared = new Set([...next].filter(([key]) => !this.sources.has(key)).map(([, src]) => src.root));
    for (const key of this.sources.keys()) if (!next.has(key)) this.reads.delete(key);
    for (const key of next.keys()) if (!this.reads.has(key)) this.dirty.sources.add(key);
    this.sources = next;
    this.scope.setRoots(discovery.watchRoots, sources.map((s) => s.stateDir));
    const roots = new Set(discovery.watchRoots);
    if (this.watcher) {
      const added = [...roots].filter((r) => !this.watchRoots.has(r) || reappeared.has(r));
      const gone = [...this.watchRoots].filter((r) => !roots.has(r));
      if (added.length) {
        this.watcher.add(added);
        for (const [key, src] of next) if (added.includes(src.root)) this.recheck.sources.add(key);
      }
      if (gone.length) this.watcher.unwatch(gone);
    }
    this.watchRoots = roots;
    // A Claude dir created after start (the first team ever) is watched from the next discovery on.
    if (this.watcher && !this.claudeDirWatched && isDir(this.ctx.claudeDir)) {
      this.watcher.add(this.ctx.claudeDir);
      this.claudeDirWatched = true;
    }
    this.dirty.assemble = true;
  }

  private readEverything(): void {
    const settings = this.settings();
    const teams = [...this.book.teams.values()];
    this.reads = new Map([...this.sources].map(([key, s]) => [key, readSource(s, teams, settings, this.readers)] as const));
  }

  /** Re-reads changed teams; the runs that take them in (or could, for a new team) are re-read too. */
  private rereadTeams(dirNames: Iterable<string>): void {
    const dirs = [...dirNames];
    const r = this.book.reread(dirs, this.livePaneIds());
    if (this.teamsTouched) for (const d of dirs) this.teamsTouched.add(d);
    this.onEnded(r);
    this.watchTaskDirs(r.added);
    for (const [key, read] of this.reads) {
      if (!mergesTeams(this.readers, read.source.system)) continue;
      if (r.setChanged || read.teamNames.some((n) => r.touched.has(n))) this.dirty.sources.add(key);
    }
    if (r.cwdsMoved) this.dirty.rediscover = true;
    this.dirty.assemble = true;
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
      this.apply();
      void deferredWork();
      this.problems.internal = null;
    } catch (err) {
      // A bug must not kill the control room: show it and keep watching.
      const msg = err instanceof Error ? err.message : String(err);
      this.problems.internal = { file: null, message: `internal error while reading: ${msg}` };
    }
    this.dirty = cleanDirty();
    this.assemble();
  }

  /** Works through what is dirty, in place (each step may mark more: a team change dirties the run that took it in). */
  private apply(): void {
    const dirty = this.dirty;
    if (dirty.full) {
      this.readTeamsFully();
      this.rediscover();
      this.readEverything();
      this.lastFullAt = this.now();
      return;
    }
    if (dirty.allTeams) {
      this.readTeamsFully();
      for (const [key, read] of this.reads) if (mergesTeams(this.readers, read.source.system)) dirty.sources.add(key);
      dirty.rediscover = true;
    } else if (dirty.teams.size) {
      this.rereadTeams(dirty.teams);
    }
    if (dirty.rediscover) this.rediscover();
    if (dirty.sources.size === 0) return;
    const settings = this.settings();
    const teams = [...this.book.teams.values()];
    for (const key of dirty.sources) {
      const source = this.sources.get(key);
      if (source) this.reads.set(key, readSource(source, teams, settings, this.readers));
    }
  }

  /** Publishes a new snapshot when something differs, and tells the listeners. */
  private assemble(): void {
    this.dirty.assemble = false;
    const { watch, internal, teams, discovery } = this.problems;
    const problems = [this.paneTracker.problem, ...this.paneTracker.swarmProblems, watch, internal, ...teams, ...discovery].filter((p): p is Problem => p !== null);
    const touched = this.teamsTouched;
    this.teamsTouched = new Set();
    if (!this.publisher.publish(this.reads, this.book.teams, problems, this.settings(), touched)) return;
    for (const l of [...this.listeners]) l();
  }
}
