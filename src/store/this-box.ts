/** This box read once for a one-shot command (`tower status` and the like): no live store, nothing watched. */
import type { AppContext } from '../context/context.js';
import type { Snapshot } from '../model/model.js';
import type { TmuxClient } from '../tmux/client.js';
import { socketFile } from '../tmux/client.js';
import { SessionBook } from './session-book.js';
import { stateHome } from '../config/config.js';
import { HookEvents, hookEventsFile } from './hook-events.js';
import { PaneWatch } from './captures.js';
import { memberPanes } from './pane-keys.js';
import { ActivityOverlay } from './activity-overlay.js';
import { buildSnapshot } from './snapshot.js';

/** One capture round of every member pane, laid over a snapshot: what `tower status` shows. */
export async function snapshotWithActivity(
  tmux: TmuxClient,
  snapshot: Snapshot,
  hooks: HookEvents | null = null,
  swarmEnv: NodeJS.ProcessEnv | null = null,
  sessions: SessionBook | null = null,
): Promise<Snapshot> {
  const watch = new PaneWatch(tmux, Date.now, hooks, swarmEnv, sessions, 'once');
  try {
    await watch.round(memberPanes(snapshot.runs, null), null);
    // The overlay also adds the round's failure as a problem row, as on the live screen.
    return new ActivityOverlay(watch).apply(snapshot);
  } finally {
    watch.close();
  }
}

/** This box read once, with one capture round for each member's activity when asked (`tower status`). */
export async function readThisBox(ctx: AppContext, opts: { activity?: boolean; now?: number } = {}): Promise<Snapshot> {
  const snapshot = await buildSnapshot(ctx, opts.now === undefined ? {} : { now: opts.now });
  return opts.activity
    ? snapshotWithActivity(
        ctx.tmux,
        snapshot,
        new HookEvents(hookEventsFile(stateHome(ctx.env))),
        ctx.env,
        new SessionBook(ctx.claudeDir, socketFile(ctx.tmux.socket, ctx.env)),
      )
    : snapshot;
}
