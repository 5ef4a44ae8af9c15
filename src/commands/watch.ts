/**
 * `tower watch`: a headless supervisor. It follows the live snapshot and prints one JSON line per
 * change; with --auto-checkpoint, a tina run whose checkpoint signal appears gets the checkpoint
 * cycle (checkpoint, then rehydrate), one cycle per run at a time. SIGINT/SIGTERM end it with exit 0.
 */
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import { Notifier } from '../notify/notifier.js';
import { actionsFor, createBoxesStore, followBoxDecisions } from '../remote/boxes.js';
import { createWatchedStore } from '../store/live-activity.js';
import { systemOf } from '../systems/registry.js';
import type { SnapshotStore } from '../store/types.js';
import type { ActionEnv, ActionKind } from '../kit/types.js';
import { cancellable } from '../kit/wait.js';
import { followRules } from '../actions/rule-follow.js';
import type { WatchEvent } from './watch-events.js';
import { diffSnapshots } from './watch-events.js';

/** How runWatch is driven: auto-checkpoint or not, when to stop, where events go. */
export interface WatchOptions {
  autoCheckpoint: boolean;
  /** Ends the watch: running cycles are cancelled (and audited as such). */
  signal: AbortSignal;
  emit: (event: WatchEvent) => void;
  /**
   * The snapshot to follow (default the live store of every box: file watching plus tmux polling with pane
   * activity, and each host's stream).
   */
  store?: SnapshotStore | undefined;
  /** Where a failing notify command is reported (default stderr). */
  warn?: ((message: string) => void) | undefined;
}

/** The steps of the automatic cycle; the next runs only when the previous one is done. */
const CYCLE: readonly ActionKind[] = ['checkpoint', 'rehydrate'];

/** Follows the snapshot until the signal aborts. */
export async function runWatch(ctx: AppContext, opts: WatchOptions): Promise<void> {
  const store = opts.store ?? createBoxesStore(ctx, createWatchedStore(ctx).store);
  // The notify command runs here as in the control room; there is no terminal to ring or title.
  const notifier = ctx.config.notify.command
    ? new Notifier({
        config: ctx.config.notify,
        write: null,
        inTmux: false,
        env: ctx.env,
        warn: (n, outcome) =>
          (opts.warn ?? ((m: string) => ctx.err.write(`tower: ${m}\n`)))(`${outcome.message} (${n.event} ${n.run})`),
      })
    : null;
  const env: ActionEnv = { ctx, snapshot: () => store.getSnapshot() };
  // A run of another box gets its cycle on that box.
  const actions = actionsFor(env, store, { suspend: () => {}, resume: () => {} });
  const cycles = new Map<string, Promise<void>>();
  const now = (): string => new Date().toISOString();
  // Rules answer this box's held requests; each decision is a line (the audit log has it too), each
  // decision another box's rules make there one too (its audit log has it).
  const rules = watchRules(env, store, opts, ctx);

  const cycle = async (run: Run): Promise<void> => {
    for (const kind of CYCLE) {
      if (opts.signal.aborted) return;
      opts.emit({ time: now(), event: 'action-started', run: run.id, action: kind });
      const plan = await actions.plan({ kind, run: run.id });
      const outcome = await actions.run(plan, { signal: opts.signal });
      opts.emit({
        time: now(),
        event: 'action-finished',
        run: run.id,
        action: kind,
        status: outcome.status,
        message: outcome.message,
        details: outcome.details ?? [],
      });
      if (outcome.status !== 'done') return;
    }
  };

  let prev = store.getSnapshot();
  const onSnapshot = (): void => {
    const next = store.getSnapshot();
    if (next === prev) return;
    const events = diffSnapshots(prev, next, now());
    prev = next;
    handle(events);
    notifier?.observe(next);
  };
  const handle = (events: WatchEvent[]): void => {
    for (const e of events) {
      opts.emit(e);
      if (
        !opts.autoCheckpoint ||
        e.event !== 'gate-opened' ||
        e.kind !== 'context' ||
        e.run === null ||
        cycles.has(e.run)
      )
        continue;
      const run = store.getSnapshot().runs.find((r) => r.id === e.run);
      if (!run || !systemOf(run.system).cycle?.autoOnContext) continue;
      const p = cycle(run).finally(() => cycles.delete(run.id));
      cycles.set(run.id, p);
    }
  };

  await store.start();
  prev = store.getSnapshot();
  handle(diffSnapshots(null, prev, now()));
  notifier?.observe(prev);
  const unsubscribe = store.subscribe(onSnapshot);
  try {
    if (!opts.signal.aborted)
      await new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true }));
  } finally {
    unsubscribe();
    await rules.stop();
    await Promise.allSettled([...cycles.values()]);
    await notifier?.settled();
    await store.stop();
  }
}

/** `tower watch [--auto-checkpoint]`: one JSON line per event until SIGINT/SIGTERM. */
export async function watchCommand(ctx: AppContext, opts: { autoCheckpoint: boolean }): Promise<number> {
  // An error on stdout stops it too: `tower watch | head -1`, the reader went away (EPIPE), so there is no
  // one left to tell.
  await cancellable(
    (signal) =>
      runWatch(ctx, {
        autoCheckpoint: opts.autoCheckpoint,
        signal,
        emit: (e) => ctx.out.write(`${JSON.stringify(e)}\n`),
      }),
    [ctx.out],
  );
  return 0;
}

/**
 * Rules following the watched store: a `rule-decision` line per decision, a refused file on stderr;
 * and a line per decision another box's rules make (`box` names it, `whose` whose rules they are).
 */
function watchRules(env: ActionEnv, store: SnapshotStore, opts: WatchOptions, ctx: AppContext) {
  const warn = opts.warn ?? ((m: string) => ctx.err.write(`tower: ${m}\n`));
  const followed = followRules(
    env,
    store,
    (r) => {
      const { time, run, ...rest } = r;
      opts.emit({ time, event: 'rule-decision', run, ...rest });
    },
    { onProblem: (p) => (p ? warn(p) : undefined) },
  );
  const unfollow = followBoxDecisions(store, (d) => {
    const { type: _type, time, runId, host, run: _id, ...rest } = d;
    opts.emit({ time, event: 'rule-decision', run: runId, ...rest, box: host });
  });
  return {
    stop: async () => {
      unfollow();
      await followed.stop();
    },
  };
}
