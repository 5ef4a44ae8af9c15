/**
 * chokidar on the state directories under project roots, and Node's fs.watch on the Claude dir's
 * folders (src/store/claude-dir-watch.ts: thousands of team folders, each file in them left unlooked
 * at). Only directories get a watch of their own: a directory's watch already reports every change
 * to the files in it (chokidar's 'raw' event), so 10,000 task files cost 50 inotify watches instead
 * of 10,000, and the watcher is ready in a fraction of the time.
 */
import path from 'node:path';
import chokidar from 'chokidar';
import { ClaudeDirWatch } from './claude-dir-watch.js';
import { isInside } from './discover.js';
import { WATCH_DEPTH } from './watch-scope.js';
import type { WatchScope } from './watch-scope.js';

export interface StateWatcherHandlers {
  /** A file or folder inside the scope changed (created, written, renamed, removed). */
  onPath(file: string): void;
  onError(err: unknown): void;
}

/** The watches of the state directories: more paths, fewer paths, all closed. */
export interface StateWatch {
  add(paths: string | readonly string[]): void;
  unwatch(paths: string | readonly string[]): void;
  close(): Promise<void>;
}

/**
 * Starts watching `paths` within `scope` (the Claude dir among them, or under it: its folders);
 * resolves once every watch is made, or at once when `signal` aborts (stop() during start closes
 * the watcher, and ready never comes).
 */
export async function watchStateDirs(
  paths: string[],
  scope: WatchScope,
  handlers: StateWatcherHandlers,
  signal: AbortSignal,
): Promise<StateWatch> {
  const claude = new ClaudeDirWatch(scope, handlers);
  const inClaudeDir = (p: string) => isInside(p, scope.claudeDir);
  const split = (ps: string | readonly string[]) => {
    const list = typeof ps === 'string' ? [ps] : ps;
    return { claude: list.filter(inClaudeDir), others: list.filter((p) => !inClaudeDir(p)) };
  };
  const chokidarWatcher = await watchRoots(split(paths).others, scope, handlers, signal);
  const watch: StateWatch = {
    add(ps) {
      const { claude: mine, others } = split(ps);
      if (others.length) chokidarWatcher.add(others);
      // The Claude dir itself, made after start: its folders are watched in batches as at start.
      if (mine.includes(scope.claudeDir)) void claude.watchAll(signal);
      claude.add(mine.filter((p) => p !== scope.claudeDir));
    },
    unwatch(ps) {
      const { claude: mine, others } = split(ps);
      if (others.length) chokidarWatcher.unwatch(others);
      claude.unwatch(mine);
    },
    async close() {
      claude.close();
      await chokidarWatcher.close();
    },
  };
  if (paths.includes(scope.claudeDir)) await claude.watchAll(signal);
  return watch;
}

/** chokidar on the project roots' state directories; resolves once it is ready (or `signal` aborts). */
async function watchRoots(
  paths: string[],
  scope: WatchScope,
  handlers: StateWatcherHandlers,
  signal: AbortSignal,
): Promise<ReturnType<typeof chokidar.watch>> {
  const watcher = chokidar.watch(paths, {
    // The Claude dir is watched apart, also when a root holds it.
    ignored: (p, stats) => isInside(p, scope.claudeDir) || scope.ignored(p) || stats?.isFile() === true,
    ignoreInitial: true,
    depth: WATCH_DEPTH,
    persistent: true,
  });
  watcher.on('raw', (_event, name, details) => {
    const dir = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof dir !== 'string') return;
    // Some platforms give no file name: then the directory as a whole changed.
    const file = typeof name === 'string' && name !== '' ? path.join(dir, name) : dir;
    if (!scope.ignoredEvent(file)) handlers.onPath(file);
  });
  // Folders coming and going (a new team, a new phase dir, a marker dir) also arrive as such.
  watcher.on('addDir', (dir) => handlers.onPath(dir));
  watcher.on('unlinkDir', (dir) => handlers.onPath(dir));
  watcher.on('error', (err) => handlers.onError(err));
  // chokidar never says ready for an empty list (no roots, no Claude dir yet): nothing to wait for.
  if (paths.length === 0) return watcher;
  await new Promise<void>((resolve) => {
    watcher.once('ready', () => resolve());
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return watcher;
}
