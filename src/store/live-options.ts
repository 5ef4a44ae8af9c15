/** The live store's timings and options. */
import type { SourceReaders } from './readers.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SwarmServer } from '../tmux/swarm.js';

/** The shortest gap between two emits: one frame. */
export const FRAME_MS = 16;

/**
 * Every two minutes everything is re-read once: ages (stale handoff, stuck heartbeat) move with the
 * clock, and a missed file event (an inotify limit, a network file system) heals itself. On a box
 * with 10,000 task files a full read costs ~150 ms of CPU, so this is most of tower's idle cost.
 */
export const FULL_REFRESH_MS = 120_000;

export interface LiveStoreOptions {
  now?: () => number;
  /** The source readers (tests swap one in). */
  readers?: SourceReaders;
  /** $HOME for the walk up from pane cwds. */
  home?: string;
  /** Called after each tmux poll (and the first read) with its pane lists; the next tick waits for it. */
  onPoll?: (panes: PaneInfo[] | null, signal: AbortSignal, swarms: readonly SwarmServer[]) => Promise<void>;
}
