/**
 * Notifications for a control-room session: the notifier follows the live snapshot (the first one
 * is the baseline), writes to the terminal except while it is handed to `tmux attach`, reports a
 * failing notify command in the activity pane, and follows the mute toggle.
 */
import type { AppContext } from '../context/context.js';
import { Notifier } from '../notify/notifier.js';
import { ownPane, prepareTerminal } from '../notify/terminal-setup.js';
import type { ActivityStore } from '../kit/activity.js';
import type { SnapshotStore } from '../store/types.js';
import type { SessionStore } from './session-state.js';

export interface NotificationsHandle {
  /** Called once the store's first snapshot is in: it becomes the baseline, then changes are followed. */
  follow(): void;
  /** Stops following and puts the terminal's title and tmux option back. */
  stop(): Promise<void>;
}

/** Starts notifications; `out` is the operator's terminal. */
export function startNotifications(
  ctx: AppContext,
  store: SnapshotStore,
  activity: ActivityStore,
  session: SessionStore,
  out: NodeJS.WritableStream,
): NotificationsHandle {
  const config = ctx.config.notify;
  const write = (bytes: string) => {
    if (!session.getSnapshot().suspended) out.write(bytes);
  };
  const notifier = new Notifier({
    config,
    write,
    inTmux: ownPane(ctx.env) !== null,
    env: ctx.env,
    warn: (n, outcome) =>
      activity.push({
        action: 'notify',
        runId: n.run,
        target: n.event,
        status: outcome.status === 'timeout' ? 'timeout' : 'failed',
        message: outcome.message,
      }),
  });
  const prepared = prepareTerminal(config, ctx.env, write).catch(() => async () => {});
  const unsubscribers: (() => void)[] = [session.subscribe(() => notifier.setMuted(session.getSnapshot().muted))];
  return {
    follow() {
      notifier.observe(store.getSnapshot());
      unsubscribers.push(store.subscribe(() => notifier.observe(store.getSnapshot())));
    },
    async stop() {
      for (const u of unsubscribers) u();
      await (
        await prepared
      )();
    },
  };
}
