/**
 * What the live store has read, and what it must read again: the Claude teams (kept by the team
 * book), the state directories discovery finds and the run read from each, and the chokidar watch
 * that follows them as they come and go. File events and the store's poll tick mark what is dirty;
 * `apply` reads it again. When to read (the frame, the poll tick) stays the store's business.
 */
import path from 'node:path';
import type { AppContext } from '../context/context.js';
import type { Problem } from '../model/model.js';
import { isDir } from '../files/look.js';
import type { ReadSettings } from '../systems/types.js';
import { sourceKey } from './discover.js';
import type { RunSource } from './discover.js';
import { cleanDirty } from './dirty.js';
import type { PaneTracker } from './pane-tracker.js';
import { mergesTeams, readSource } from './readers.js';
import type { SourceRead, SourceReaders } from './readers.js';
import { discoverSources, paneSessionsOf, settingsFrom } from './snapshot.js';
import { watchStateDirs } from './state-watcher.js';
import type { StateWatch, StateWatcherHandlers } from './state-watcher.js';
import { TeamBook } from './team-book.js';
import type { EndedChange } from './team-book.js';
import { WatchScope } from './watch-scope.js';

export class LiveReads {
  /** The Claude teams, which ended, and their cwds. */
  readonly book: TeamBook;
  /** The run read from each state directory, by source key. */
  reads = new Map<string, SourceRead>();
  /** What to read again at the next frame. */
  dirty = cleanDirty();
  /** Problems met while reading the teams and while discovering. */
  readonly problems = { teams: [] as Problem[], discovery: [] as Problem[] };

  private sources = new Map<string, RunSource>();
  private watchRoots = new Set<string>();
  private claudeDirWatched = false;
  /** The teams re-read since the last publish (null: all of them may have changed). */
  private teamsTouched: Set<string> | null = null;
  /**
   * What to read once more at the next poll: chokidar sets up a newly added path asynchronously,
   * and a file written before it is ready would be missed (the read that made the path known came first).
   */
  private recheck = cleanDirty();
  private watcher: StateWatch | null = null;
  private readonly scope: WatchScope;

  constructor(
    private readonly ctx: AppContext,
    /** The store's pane lists: discovery walks up from their cwds, and they say which teams are alive. */
    private readonly paneTracker: PaneTracker,
    private readonly readers: SourceReaders,
    private readonly now: () => number,
    /** $HOME for the walk up from pane cwds. */
    private readonly home: string | undefined,
  ) {
    this.book = new TeamBook(ctx.claudeDir, readers, now);
    this.scope = new WatchScope(
      ctx.claudeDir,
      (dirName) => this.book.teams.has(dirName),
      (dirName) => this.book.ended.has(dirName),
    );
  }

  // ---- watching ----

  /** Starts watching the roots found so far and the Claude dir; resolves once chokidar is ready. */
  async startWatching(handlers: StateWatcherHandlers, signal: AbortSignal): Promise<void> {
    const paths = [...this.watchRoots];
    this.claudeDirWatched = isDir(this.ctx.claudeDir);
    if (this.claudeDirWatched) paths.push(this.ctx.claudeDir);
    const watcher = await watchStateDirs(paths, this.scope, handlers, signal);
    // The store may have stopped (and aborted the signal) while chokidar got ready: then this watcher is ours to close.
    if (signal.aborted) await watcher.close();
    else this.watcher = watcher;
  }

  async stopWatching(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
  }

  /** Marks what a changed path asks to read again; false when it asks for nothing. */
  markPath(file: string): boolean {
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
        return false;
    }
    return true;
  }

  /** Marks the runs whose data is fetched (an operator's answer); false when there are none. */
  markPolled(): boolean {
    let marked = false;
    for (const [key, read] of this.reads) {
      if (!read.polled) continue;
      this.dirty.sources.add(key);
      marked = true;
    }
    return marked;
  }

  /** Marks what every poll tick reads again: what a new watch may have missed, and the runs read from fetched data. */
  markForTick(): void {
    for (const t of this.recheck.teams) this.dirty.teams.add(t);
    for (const k of this.recheck.sources) this.dirty.sources.add(k);
    this.recheck = cleanDirty();
    // Runs read from fetched data are read again every tick; a read asks for a fetch when its data is old.
    this.markPolled();
  }

  /**
   * Works out again which teams ended, after the panes alive changed (a team's pane may be alive again, or
   * the last one died).
   */
  settleEnded(): void {
    this.onEnded(this.book.settle(this.book.teams.keys(), this.livePaneIds()));
  }

  /**
   * A team that ended loses the watches of its folders; one that woke gets them back, and is read again at
   * the next poll.
   */
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

  // ---- reading ----

  settings(): ReadSettings {
    // A change of pane cwds rediscovers, and so re-reads, every source with these.
    const panes = this.paneTracker.panes;
    return {
      ...settingsFrom(this.ctx.config, this.now(), this.ctx.env),
      paneCwds: (panes ?? []).map((p) => p.cwd),
      paneSessions: paneSessionsOf(panes),
    };
  }

  /** The teams re-read since the last call (null: all of them may have changed). */
  takeTouchedTeams(): Set<string> | null {
    const touched = this.teamsTouched;
    this.teamsTouched = new Set();
    return touched;
  }

  /** Reads every team again (the book keeps a team that ended while its files stay as they were). */
  readTeamsFully(): void {
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

  /** Roots and state dirs from everything discovery looks at now. */
  private discover(problems: Problem[]): ReturnType<typeof discoverSources> {
    const { roots, claudeDir, discover } = this.ctx;
    const paneCwds = (this.paneTracker.panes ?? []).map((p) => p.cwd);
    return discoverSources(
      { roots, claudeDir, discover, home: this.home, paneCwds, teamCwds: this.book.cwds },
      this.readers,
      problems,
    );
  }

  /** Whether the state directories found now differ from the ones being read. */
  sourcesMoved(): boolean {
    const { sources } = this.discover([]);
    return sources.length !== this.sources.size || sources.some((s) => !this.sources.has(sourceKey(s)));
  }

  /** Finds roots and state directories again; new sources are marked for reading, gone ones dropped. */
  rediscover(): void {
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
    this.scope.setRoots(
      discovery.watchRoots,
      sources.map((s) => s.stateDir),
    );
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

  readEverything(): void {
    const settings = this.settings();
    const teams = this.book.list();
    this.reads = new Map(
      [...this.sources].map(([key, s]) => [key, readSource(s, teams, settings, this.readers)] as const),
    );
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

  /**
   * Works through what is dirty, in place (each step may mark more: a team change dirties the run
   * that took it in). Returns true when everything was read again (the periodic full read).
   */
  apply(): boolean {
    const dirty = this.dirty;
    if (dirty.full) {
      this.readTeamsFully();
      this.rediscover();
      this.readEverything();
      return true;
    }
    if (dirty.allTeams) {
      this.readTeamsFully();
      for (const [key, read] of this.reads) if (mergesTeams(this.readers, read.source.system)) dirty.sources.add(key);
      dirty.rediscover = true;
    } else if (dirty.teams.size) {
      this.rereadTeams(dirty.teams);
    }
    if (dirty.rediscover) this.rediscover();
    if (dirty.sources.size === 0) return false;
    const settings = this.settings();
    const teams = this.book.list();
    for (const key of dirty.sources) {
      const source = this.sources.get(key);
      if (source) this.reads.set(key, readSource(source, teams, settings, this.readers));
    }
    return false;
  }
}
