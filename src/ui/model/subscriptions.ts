/**
 * What the model hears from outside: the snapshot, the activity, the terminal's size, the session,
 * whether an action can be cancelled, the preview's capture and the clock, each sent in as a message
 * when it changes. The pane watch is told, from the model, which run to capture and which pane to stream.
 */
import type { ActivityStore } from '../../kit/activity.js';
import type { Member, Run } from '../../model/model.js';
import type { PaneLooks } from '../../store/captures.js';
import type { SnapshotStore } from '../../store/types.js';
import type { ActionRunner } from './action-runner.js';
import type { SizeStore } from '../hooks/use-terminal-size.js';
import type { SessionStore } from '../session-state.js';
import { previewMember } from '../state/selectors.js';
import { paneTextLines } from '../text/pane-text.js';
import type { Clock } from '../clock.js';
import type { FrameOf } from './model.js';
import type { ModelStore } from './store.js';

/** Where the messages come from. */
export interface Sources {
  store: SnapshotStore;
  activity: ActivityStore;
  sizes: SizeStore;
  session: SessionStore;
  runner: ActionRunner;
  watch: PaneLooks | null;
  /** Where ticks read the time; a clock moved by hand sends one as it moves. */
  clock: Clock;
}

/** Sends every source's changes to `model` (its current values at once); returns the way to stop. */
export function connect(model: ModelStore, frameOf: FrameOf, src: Sources): () => void {
  const snapshot = () => model.send({ type: 'snapshot', snapshot: src.store.getSnapshot() });
  const activity = () => model.send({ type: 'activity', activity: src.activity.getSnapshot() });
  const resize = () => model.send({ type: 'resize', size: src.sizes.getSize() });
  const session = () => model.send({ type: 'session', session: src.session.getSnapshot() });
  const cancellable = () => model.send({ type: 'cancellable', cancellable: src.runner.getCancellable() !== null });
  // The first tick (sent at once) asks for the next: the clock's timer runs from here on (model/tick.ts).
  const tick = () => model.send({ type: 'tick', now: src.clock.now() });
  const watch = src.watch ? watching(model, frameOf, src.watch) : null;
  const stops = [
    src.store.subscribe(snapshot),
    src.activity.subscribe(activity),
    src.sizes.subscribe(resize),
    src.session.subscribe(session),
    src.runner.subscribe(cancellable),
    src.clock.subscribe(tick),
  ];
  for (const catchUp of [snapshot, activity, resize, session, cancellable, tick]) catchUp();
  watch?.sync();
  return () => {
    for (const stop of stops) stop();
    watch?.stop();
  };
}

/**
 * Keeps the pane watch on the model: the selected run is captured every tick, only the previewed
 * pane streams (none while the terminal is handed to an attached pane), and the capture's line
 * count goes back to the model for the preview's scroll-back.
 */
function watching(model: ModelStore, frameOf: FrameOf, watch: PaneLooks): { sync(): void; stop(): void } {
  let runId: string | null | undefined;
  let previewed: { run: Run | null; member: Member | null } = { run: null, member: null };
  let version = -1;
  const sync = () => {
    const m = model.getModel();
    const { view } = frameOf(m);
    const nextRunId = view.run?.id ?? null;
    if (nextRunId !== runId) watch.focus((runId = nextRunId));
    const member = m.session.suspended ? null : previewMember(view.run, view.member, m.ui.focus);
    const run = member ? view.run : null;
    const moved = member !== previewed.member || run !== previewed.run;
    if (moved) {
      previewed = { run, member };
      watch.preview?.(run, member);
    }
    if (!moved && watch.getVersion() === version) return;
    version = watch.getVersion();
    const look = member ? watch.lookOf(member, run) : undefined;
    model.send({ type: 'capture', lines: look ? paneTextLines(look.text, false).length : 0 });
  };
  const stops = [model.subscribe(sync), watch.subscribe(sync)];
  return {
    sync,
    stop() {
      for (const stop of stops) stop();
      watch.preview?.(null, null);
    },
  };
}
