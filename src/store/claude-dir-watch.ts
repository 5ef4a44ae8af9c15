/**
 * The Claude dir watched with Node's own fs.watch, one watch per folder the scope wants (the dir,
 * `teams/`, `tasks/`, each team's two folders, the root registries), and nothing looked at inside
 * them: chokidar listed and lstat'ed every file of every folder it watched, ~11 s of CPU after the
 * first frame on a box of 10,000 teams at work (40,000 task files); here a folder costs its watch.
 * A folder that appears in a watched one gets its own watch when the scope wants it; the watches
 * are made in batches, so the screen stays answered while a big box's are set up.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WatchScope } from './watch-scope.js';

/** Watches made before the event loop gets a turn. */
const BATCH = 500;

/** How deep under the Claude dir folders are watched (`teams/<team>`, `tasks/<team>`). */
const FOLDER_DEPTH = 2;

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The folders under `dir` (no stat: the entries' types), or none when it cannot be read. */
function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/** Where a watch's news goes (the state watcher's handlers). */
export interface FolderEvents {
  /** A file or folder inside a watched folder changed (created, written, renamed, removed). */
  onPath(file: string): void;
  onError(err: unknown): void;
}

export class ClaudeDirWatch {
  private readonly watches = new Map<string, fs.FSWatcher>();
  private closed = false;

  constructor(
    private readonly scope: WatchScope,
    private readonly handlers: FolderEvents,
  ) {}

  /** The number of folders watched now. */
  get size(): number {
    return this.watches.size;
  }

  /** Watches the Claude dir and every folder in it the scope wants; resolves when all are made (or `signal` aborts). */
  async watchAll(signal: AbortSignal): Promise<void> {
    const top = this.scope.claudeDir;
    const wanted = (dirs: string[]) => dirs.filter((d) => !this.scope.ignored(d));
    const first = [top, ...wanted(subfolders(top))];
    const folders = [...first, ...first.slice(1).flatMap((d) => wanted(subfolders(d)))];
    for (let i = 0; i < folders.length; i += BATCH) {
      if (signal.aborted || this.closed) return;
      for (const dir of folders.slice(i, i + BATCH)) this.watch(dir);
      if (i + BATCH < folders.length) await new Promise((r) => setImmediate(r));
    }
  }

  /** Watches these folders (a team woken, a task folder newly known); a path that is no folder is left. */
  add(dirs: readonly string[]): void {
    for (const dir of dirs) if (isDir(dir)) this.watch(dir);
  }

  /** Ends the watches of these folders. */
  unwatch(dirs: readonly string[]): void {
    for (const dir of dirs) {
      this.watches.get(dir)?.close();
      this.watches.delete(dir);
    }
  }

  close(): void {
    this.closed = true;
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
  }

  private watch(dir: string): void {
    if (this.closed || this.watches.has(dir)) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: true }, (_event, name) => this.event(dir, name));
    } catch (err) {
      // Gone before its watch was made: its parent's watch said so, or will.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR')
        this.handlers.onError(err);
      return;
    }
    watcher.on('error', (err) => {
      this.unwatch([dir]);
      // A folder removed ends its watch; any other failure is the store's to show.
      if (isDir(dir)) this.handlers.onError(err);
    });
    this.watches.set(dir, watcher);
  }

  private event(dir: string, name: string | Buffer | null): void {
    // Some platforms give no file name: then the folder as a whole changed.
    const file = name === null || name === '' ? dir : path.join(dir, String(name));
    if (file !== dir && this.depth(file) <= FOLDER_DEPTH && !this.scope.ignored(file)) {
      // A folder that came gets its watch (before the store reads it, so no later write is missed);
      // one that went loses it.
      if (isDir(file)) this.watch(file);
      else this.unwatch([file]);
    }
    if (!this.scope.ignoredEvent(file)) this.handlers.onPath(file);
  }

  private depth(p: string): number {
    return path.relative(this.scope.claudeDir, p).split(path.sep).length;
  }
}
