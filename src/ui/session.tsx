/**
 * A control-room session on the real terminal: alternate screen, the painter, the live store, the
 * real actions, and every exit path (q, Ctrl-C, signals, crashes) restoring the terminal.
 */
import { render } from 'ink';
import type { Instance } from 'ink';
import type { ActionEnv } from '../kit/types.js';
import type { AppContext } from '../context/context.js';
import type { Snapshot } from '../model/model.js';
import { ActivityStore } from '../kit/activity.js';
import { interruptedLine, markInterrupted } from '../kit/audit.js';
import { attachToPane, planAction, runAction } from '../actions/index.js';
import { usesHosts } from '../config/hosts.js';
import { createWatchedStore } from '../store/live-activity.js';
import type { SnapshotStore } from '../store/types.js';
import type { ControlRoomActions } from './actions-port.js';
import { ControlRoom } from './app.js';
import { seededStore } from './first-frame/seeded-store.js';
import type { Bindings } from '../keys/keymap.js';
import { startNotifications } from './notifications.js';
import { createSessionStore } from './session-state.js';
import type { SessionStore } from './session-state.js';
import { FrameSink } from './terminal/frame-sink.js';
import { endProcess, toStderr } from './terminal/ending.js';
import { holdConsole, installLifecycle, SIGNAL_CODES } from './terminal/lifecycle.js';
import { ScreenPainter } from './terminal/screen-painter.js';
import type { Terminal } from './terminal/terminal.js';
import { readingNote } from './reading-note.js';
import { sanitize } from '../text/sanitize.js';

/** Waits until ink has let go of stdin (its reader detached), at most `ms`. */
async function stdinReleased(stdin: NodeJS.ReadStream, ms = 500): Promise<void> {
  const end = Date.now() + ms;
  while (stdin.listenerCount('readable') > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

/** The real actions on this box; the terminal is handed over around `tmux attach`. */
function localActions(env: ActionEnv, handOver: { suspend(): Promise<void>; resume(): void }): ControlRoomActions {
  return {
    plan: (req) => planAction(env, req),
    run: (plan, hooks) => runAction(env, plan, hooks),
    attach: (paneId) => attachToPane(env, paneId, handOver),
  };
}

/** The libuv handle under stdin (not public API: see stopReading). */
type TtyHandle = { reading?: boolean; readStop?: () => number; readStart?: () => number };
const ttyHandle = (stdin: NodeJS.ReadStream): TtyHandle | undefined =>
  (stdin as unknown as { _handle?: TtyHandle })._handle;

/**
 * Stops the terminal's reader itself. Without a listener node still has a read pending on the tty
 * and wins the race for keys against the attached program (ssh, tmux attach).
 */
function stopReading(stdin: NodeJS.ReadStream): void {
  const handle = ttyHandle(stdin);
  if (!handle?.reading || !handle.readStop) return;
  handle.reading = false;
  handle.readStop();
}

/** Starts the reader stopReading stopped (the stream still thinks its read is pending, so it won't). */
function startReading(stdin: NodeJS.ReadStream): void {
  const handle = ttyHandle(stdin);
  if (!handle || handle.reading || !handle.readStart) return;
  handle.reading = true;
  handle.readStart();
}

function handOver(session: SessionStore, painter: ScreenPainter, terminal: Terminal, stdin: NodeJS.ReadStream) {
  return {
    async suspend() {
      // The input router goes inactive, so ink turns raw mode off and stops reading stdin:
      // every key typed in the attached session must reach tmux, not us.
      session.set({ suspended: true });
      await stdinReleased(stdin);
      stopReading(stdin);
      painter.suspend();
      terminal.restore();
    },
    resume() {
      startReading(stdin);
      terminal.enter();
      painter.resume();
      session.set({ suspended: false });
    },
  };
}

/** An earlier tower killed in the middle of an action: marked in the audit log, said in the activity pane. */
function sayInterrupted(ctx: AppContext, activity: ActivityStore): void {
  if (ctx.dryRun || ctx.readonly) return;
  markInterrupted(ctx.env).then(
    (left) => {
      for (const e of left)
        activity.push({
          action: e.action,
          runId: e.run,
          target: e.target,
          status: 'failed',
          message: interruptedLine(e),
        });
    },
    () => undefined,
  );
}

/** The control room crashed: the terminal is given back, then what happened is said on stderr. */
function crashed(error: unknown, painter: ScreenPainter, terminal: Terminal, held: ReturnType<typeof holdConsole>) {
  painter.suspend();
  terminal.restore();
  held.release(toStderr);
  // The message can quote what a file or a box said: made safe to print like everything else.
  toStderr(
    `tower: the control room crashed: ` +
      `${sanitize(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  void endProcess(1);
}

/**
 * Starts the store: loading ends with its first snapshot (which may come before start() settles,
 * as it also waits for the watchers), `started` runs once it is up, and a failure lands in the
 * activity pane.
 */
function startStore(store: SnapshotStore, session: SessionStore, activity: ActivityStore, started: () => void) {
  const firstSnapshot = store.subscribe(() => session.set({ loading: false }));
  store.start().then(
    () => {
      firstSnapshot();
      session.set({ loading: false });
      started();
    },
    (err: unknown) => {
      firstSnapshot();
      session.set({ loading: false });
      activity.push({
        action: 'read',
        runId: null,
        target: null,
        status: 'failed',
        message: `reading state failed: ${err instanceof Error ? err.message : String(err)}`,
      });
    },
  );
}

/** ink's options: it draws into the frame sink (which paints only what changed) and reads stdin itself. */
function inkOptions(sink: FrameSink, stdin: NodeJS.ReadStream) {
  return {
    stdout: sink as unknown as NodeJS.WriteStream,
    stdin,
    stderr: process.stderr,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  };
}

/** What the launcher (main.tsx) has already done: the keymap is checked, the terminal is set up. */
export interface SessionStart {
  bindings: Bindings;
  /** Already in the alternate screen, showing the first frame. */
  terminal: Terminal;
  /** The painter that drew the opening screen (it knows what is on screen). */
  painter?: ScreenPainter | undefined;
  /** The snapshot the opening screen was drawn from, shown until the live store has its own. */
  first?: Snapshot | null | undefined;
  /** Called once this session's own exit handlers are in place. */
  onStarted?: () => void;
}

/** Runs the control room until the operator quits; resolves to the exit code. */
export async function startControlRoom(ctx: AppContext, start: SessionStart): Promise<number> {
  const { terminal, bindings } = start;
  const stdout = process.stdout;
  const stdin = process.stdin;
  const { store: local, watch } = createWatchedStore(ctx);
  // Other boxes' machinery (ssh links, the combined store) is loaded only when there are hosts.
  const remote = usesHosts(ctx) ? await import('../remote/boxes.js') : null;
  const live = remote ? remote.createBoxesStore(ctx, local) : local;
  // Another box's pane in the preview is what that box streams of it.
  const looks = remote ? remote.looksFor(watch, live) : watch;
  const store = start.first ? seededStore(live, start.first) : live;
  const activity = new ActivityStore();
  const session = createSessionStore({
    loading: !start.first,
    reading: start.first ? '' : readingNote(ctx.claudeDir, ctx.roots),
  });
  const painter = start.painter ?? new ScreenPainter(stdout);
  const sink = new FrameSink(stdout, painter);
  // The UI records its actions in the activity pane itself (with progress from the hooks), so the
  // actions get no activity store of their own: one entry per action, not two.
  const env: ActionEnv = { ctx, snapshot: () => store.getSnapshot() };
  const io = handOver(session, painter, terminal, stdin);
  // The actions need the store of every box itself (not the seeded view of it) to reach the hosts.
  const actions = remote ? remote.actionsFor(env, live, io) : localActions(env, io);
  const notifications = startNotifications(ctx, store, activity, session, stdout);

  let code = 0;
  let failure: unknown;
  // The rules' follower, once loaded (a holder: TypeScript does not see the callback assign it).
  const rules: { current: { stop(): Promise<void> } | null } = { current: null };
  let stopped = false;
  let instance: Instance | null = null;
  const held = holdConsole();
  const uninstall = installLifecycle({
    onSignal(signal) {
      code = SIGNAL_CODES[signal];
      instance?.unmount();
    },
    onCrash: (error) => crashed(error, painter, terminal, held),
  });
  start.onStarted?.();

  terminal.enter();
  try {
    instance = render(
      <ControlRoom
        store={store}
        activity={activity}
        actions={actions}
        bindings={bindings}
        color={ctx.color}
        readonly={ctx.readonly}
        contextThreshold={ctx.config.contextThresholdPct}
        session={session}
        watch={looks}
      />,
      inkOptions(sink, stdin),
    );
    startStore(store, session, activity, () => {
      notifications.follow();
      // Rules answer this box's held requests, and other boxes' decisions show; loaded after the first frame.
      void import('./session-rules.js')
        .then(({ startRules }) => startRules({ ...env, activity }, live, session, remote))
        .then((r) => {
          if (stopped) void r.stop();
          else rules.current = r;
        });
    });
    sayInterrupted(ctx, activity);
    await instance.waitUntilExit();
  } catch (err) {
    // A render error (ink's boundary caught it) or a failed start: reported after the terminal is back.
    code = 1;
    failure = err;
  } finally {
    uninstall();
    painter.stop();
    sink.dispose();
    terminal.restore();
    await notifications.stop().catch(() => {});
    stopped = true;
    await rules.current?.stop().catch(() => {});
    held.release(toStderr);
    await store.stop().catch(() => {});
  }
  if (failure !== undefined)
    toStderr(`tower: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
  return code;
}
