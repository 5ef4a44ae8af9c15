/**
 * chokidar on the state directories. Only directories get a watch of their own: a directory's
 * watch already reports every change to the files in it (chokidar's 'raw' event), so 10,000 task
 * files cost 50 inotify watches instead of 10,000, and the watcher is ready in a fraction of the time.
 */
import path from 'node:path';
import chokidar from 'chokidar';
import type { FSWatcher } from 'chokidar';
import { WATCH_DEPTH } from './watch-scope.js';
import type { WatchScope } from './watch-scope.js';

export interface StateWatcherHandlers {
  /** A file or folder inside the scope changed (created, written, renamed, removed). */
  onPath(file: string): void;
  onError(err: unknown): void;
}

/**
 * Starts watching `paths` within `scope`; resolves once chokidar is ready, or at once when
 * `signal` aborts (stop() during start closes the watcher, and ready never comes).
 */
export async function watchStateDirs(
  paths: string[],
  scope: WatchScope,
  handlers: StateWatcherHandlers,
  signal: AbortSignal,
): Promise<FSWatcher> {
  const watcher = chokidar.watch(paths, {
    ignored: (p, stats) => scope.ignored(p) || stats?.isFile() === true,
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
