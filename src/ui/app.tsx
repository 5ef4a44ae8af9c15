/**
 * The control room: one model (model/model.ts), changed only by update's messages (keys, the
 * snapshot, the activity, the size, the session, captures, the clock's ticks), drawn from one frame
 * derived from it. Everything it shows comes from that model, held outside React.
 */
import { useApp, useStdout } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ActivityStore } from '../kit/activity.js';
import type { PaneLooks } from '../store/captures.js';
import type { SnapshotStore } from '../store/types.js';
import type { ControlRoomActions } from './actions-port.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { ActionRunner } from './model/action-runner.js';
import { TickTimer } from './model/tick.js';
import { useInputRouter } from './hooks/use-input-router.js';
import { createSizeStore } from './hooks/use-terminal-size.js';
import type { TerminalSize } from './hooks/use-terminal-size.js';
import type { Bindings } from '../keys/keymap.js';
import { defaultBindings } from '../keys/keymap.js';
import { runEffect } from './model/effects.js';
import { holdFirstRun } from './model/update.js';
import { inPrompt, initialModel, modelFrames } from './model/model.js';
import { createModelStore } from './model/store.js';
import { connect } from './model/subscriptions.js';
import { Screen } from './screen.js';
import type { SessionStore } from './session-state.js';
import { createSessionStore } from './session-state.js';
import { createTheme } from './theme.js';
import { ThemeContext } from './theme-context.js';

/** What the control room is given. The stores, the actions and the bindings are taken once, at mount. */
export interface ControlRoomProps {
  /** The live snapshot (tests pass an in-memory store). */
  store: SnapshotStore;
  /** The activity pane's entries; the control room adds one per action it runs. */
  activity: ActivityStore;
  actions: ControlRoomActions;
  /** Keymap after the user's overrides (default: the built-in table). */
  bindings?: Bindings | undefined;
  /** false = no colour codes at all. */
  color?: boolean | undefined;
  readonly?: boolean | undefined;
  /** Context threshold for runs that name none (config contextThresholdPct). */
  contextThreshold?: number | undefined;
  clock?: Clock | undefined;
  /** Loading and attach state, written by the terminal session. */
  session?: SessionStore | undefined;
  /** Pane captures: the preview's text; told which run is selected so its panes are captured every tick. */
  watch?: PaneLooks | null | undefined;
  /** Called when the operator quits (after that the app unmounts). */
  onQuit?: (() => void) | undefined;
}

/** What the control room makes once, at mount, besides the props it is given. */
interface CoreParts {
  bindings: Bindings;
  readonly: boolean;
  clock: Clock;
  session: SessionStore;
  size: TerminalSize;
  quit: () => void;
}

/** The model, its frame deriver, the action runner and the clock's timer, wired to run each other's effects. */
function createCore(props: ControlRoomProps, p: CoreParts) {
  const frameOf = modelFrames();
  const start = initialModel({
    snapshot: props.store.getSnapshot(),
    activity: props.activity.getSnapshot(),
    size: p.size,
    session: p.session.getSnapshot(),
    bindings: p.bindings,
    readonly: p.readonly,
  });
  // The first run the cursor shows is held by its id at once, so the first frame is drawn once.
  const model = createModelStore(holdFirstRun(start), frameOf, (e) => runEffect(e, effects));
  const runner = new ActionRunner({
    actions: props.actions,
    activity: props.activity,
    dialogs: { dispatch: (action) => model.send({ type: 'dialog', action }) },
    readonly: p.readonly,
  });
  const ticks = new TickTimer(() => p.clock.now(), model.send);
  const effects = { runner, session: p.session, ticks, quit: p.quit, send: model.send };
  const press = (key: string | null, raw: string) => model.send({ type: 'key', key, raw });
  return { model, frameOf, runner, ticks, press, inPrompt: () => inPrompt(model.getModel()) };
}

/** The interactive control room. */
export function ControlRoom(props: ControlRoomProps) {
  const { exit } = useApp();
  const bindings = useMemo(() => props.bindings ?? defaultBindings(), [props.bindings]);
  const theme = useMemo(() => createTheme(props.color ?? true), [props.color]);
  const [clock] = useState(() => props.clock ?? systemClock);
  const [session] = useState(() => props.session ?? createSessionStore());
  const { stdout } = useStdout();
  const [sizes] = useState(() => createSizeStore(stdout));
  // What quitting calls, as the last render left it: set after the render, read by the keys' effects.
  const quit = useRef(() => {});
  useLayoutEffect(() => {
    quit.current = () => {
      props.onQuit?.();
      exit();
    };
  });
  const readonly = Boolean(props.readonly);

  const [core] = useState(() =>
    createCore(props, { bindings, readonly, clock, session, size: sizes.getSize(), quit: () => quit.current() }),
  );
  useEffect(
    () => () => {
      core.runner.dispose();
      core.ticks.dispose();
    },
    [core],
  );
  useEffect(
    () =>
      connect(core.model, core.frameOf, {
        store: props.store,
        activity: props.activity,
        sizes,
        session,
        runner: core.runner,
        watch: props.watch ?? null,
        clock,
      }),
    [core, props.store, props.activity, sizes, session, props.watch, clock],
  );

  // One model; the frame is derived from it once, by the deriver update uses for the keys.
  const model = useSyncExternalStore(core.model.subscribe, core.model.getModel);
  const frame = core.frameOf(model);
  const { loading, reading, suspended, muted, byRule, deniedByRule } = model.session;
  useInputRouter(core.press, !suspended, core.inPrompt);

  return (
    <ThemeContext.Provider value={theme}>
      <Screen
        layout={frame.layout}
        snapshot={model.snapshot}
        loading={loading}
        reading={reading}
        muted={muted}
        byRule={byRule}
        deniedByRule={deniedByRule}
        activity={model.activity}
        ui={model.ui}
        view={frame.view}
        dialog={model.dialogs.current}
        hints={frame.hints}
        bindings={bindings}
        readonly={readonly}
        contextThreshold={props.contextThreshold ?? 70}
        watch={props.watch ?? null}
        help={frame.help}
        dialogBox={frame.dialogBox}
        now={model.now}
      />
    </ThemeContext.Provider>
  );
}
