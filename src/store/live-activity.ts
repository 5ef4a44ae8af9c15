/** The live store with pane captures hooked into its poll tick: what the control room reads. */
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { PaneWatch } from './captures.js';
import { SessionBook } from './session-book.js';
import { socketFile } from '../tmux/client.js';
import { withPaneActivity } from './activity-overlay.js';
import { HookEvents, hookEventsFile } from './hook-events.js';
import { createLiveStore } from './live-store.js';
import { LocalPaneLooks } from './preview-stream.js';
import type { LiveStoreOptions } from './live-store.js';
import type { SnapshotStore } from './types.js';

/**
 * The store (snapshots with each member's activity) and the captures behind it (the preview, streaming the
 * previewed pane at most every `previewMs` while it prints; default PREVIEW_MS).
 */
export function createWatchedStore(
  ctx: AppContext,
  opts: LiveStoreOptions = {},
  previewMs?: number,
): { store: SnapshotStore; watch: LocalPaneLooks } {
  const watch = new PaneWatch(
    ctx.tmux,
    Date.now,
    new HookEvents(hookEventsFile(stateHome(ctx.env))),
    ctx.env,
    new SessionBook(ctx.claudeDir, socketFile(ctx.tmux.socket, ctx.env)),
    'live',
  );
  const looks = new LocalPaneLooks(watch, previewMs);
  const inner: SnapshotStore = createLiveStore(ctx, {
    ...opts,
    onPoll: (panes, signal, swarms) => watch.tick(inner.getSnapshot(), panes, signal, swarms),
  });
  const store = withPaneActivity(inner, watch);
  const stop = store.stop;
  // The previewed pane stops streaming with the store.
  store.stop = () => {
    looks.stream.stop();
    watch.close();
    return stop();
  };
  return { store, watch: looks };
}
