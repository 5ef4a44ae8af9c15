/**
 * The control room: wires the stores (snapshot, activity, clock, screen state) to the screen and
 * the keys to the controller. Everything it shows comes from stores outside React.
 */
import { useApp, useStdout } from 'ink';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ActivityStore } from '../kit/activity.js';
import type { PaneLooks } from '../store/captures.js';
import type { SnapshotStore } from '../store/types.js';
import type { ControlRoomActions } from './actions-port.js';
import type { Clock } from './clock.js';
import { createTickingClock } from './clock.js';
import { ActionRunner } from './controller/action-runner.js';
import { Controller } from './controller/controller.js';
import { ClockContext } from './hooks/use-clock.js';
import { useInputRouter } from './hooks/use-input-router.js';
import { useActivity, useSnapshot } from './hooks/use-snapshot.js';
import { createSizeStore, useTerminalSize } from './hooks/use-terminal-size.js';
import { frameDeriver } from './frame.js';
import type { Bindings } from '../keys/keymap.js';
import { defaultBindings } from '../keys/keymap.js';
import { Screen } from './screen.js';
import type { SessionStore } from './session-state.js';
import { createSessionStore } from './session-state.js';
import { NO_DIALOG, dialogReducer } from './state/dialog-state.js';
import { createReducerStore } from './state/reducer-store.js';
import { initialUiState, uiReducer } from './state/ui-state.js';
import { previewMember, visibleRuns } from './state/selectors.js';
import { paneTextLines } from './text/pane-text.js';
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

/** The interactive control room. */
export function ControlRoom(props: ControlRoomProps) {
  const { exit } = useApp();
  const bindings = useMemo(() => props.bindings ?? defaultBindings(), [props.bindings]);
  const theme = useMemo(() => createTheme(props.color ?? true), [props.color]);
  const [clock] = useState(() => props.clock ?? createTickingClock());
  const [session] = useState(() => props.session ?? createSessionStore());
  const { stdout } = useStdout();
  const [sizes] = useState(() => createSizeStore(stdout));
  const quit = useRef(() => {});
  quit.current = () => {
    props.onQuit?.();
    exit();
  };

  const [core] = useState(() => {
    const ui = createReducerStore(uiReducer, initialUiState());
    const dialogs = createReducerStore(dialogReducer, NO_DIALOG);
    const runner = new ActionRunner({
      actions: props.actions,
      activity: props.activity,
      dialogs,
      readonly: Boolean(props.readonly),
    });
    const frameOf = frameDeriver();
    // The frame for the stores as they are now: the screen renders it, the keys act on it.
    const frame = () =>
      frameOf({
        snapshot: props.store.getSnapshot(),
        activity: props.activity.getSnapshot(),
        ui: ui.getState(),
        dialog: dialogs.getState().current,
        size: sizes.getSize(),
        bindings,
        readonly: Boolean(props.readonly),
        cancellable: runner.getCancellable() !== null,
        muted: session.getSnapshot().muted,
      });
    const controller = new Controller({
      bindings,
      ui,
      dialogs,
      runner,
      activity: () => props.activity.getSnapshot(),
      frame,
      quit: () => quit.current(),
      muted: () => session.getSnapshot().muted,
      toggleMute: () => session.set({ muted: !session.getSnapshot().muted }),
      previewLines: (view, focus) => {
        const m = previewMember(view.run, view.member, focus);
        const look = m ? props.watch?.lookOf(m, view.run) : undefined;
        return look ? paneTextLines(look.text, false).length : 0;
      },
    });
    /** Selects the first run shown while none is selected; only the operator's keys move it after. */
    const holdFirstRun = () => {
      const s = ui.getState();
      if (s.selectedRunId !== null) return;
      const first = visibleRuns(props.store.getSnapshot().runs, s.filter, s.showEnded)[0];
      if (first) ui.dispatch({ type: 'select-run', id: first.id });
    };
    holdFirstRun();
    return { ui, dialogs, runner, controller, frameOf, holdFirstRun };
  });
  useEffect(() => () => core.runner.dispose(), [core]);
  // The first run the cursor shows is held by its id (at once when there is one, so the first frame
  // is drawn once): a run that grows urgent and moves to the top does not take the cursor from it.
  useEffect(() => {
    core.holdFirstRun();
    return props.store.subscribe(core.holdFirstRun);
  }, [core, props.store]);

  // Subscriptions: each store's change renders again; the frame is derived from their values once.
  const snapshot = useSnapshot(props.store);
  const activity = useActivity(props.activity);
  const ui = useSyncExternalStore(core.ui.subscribe, core.ui.getState);
  const dialog = useSyncExternalStore(core.dialogs.subscribe, core.dialogs.getState).current;
  const cancellable = useSyncExternalStore(core.runner.subscribe, core.runner.getCancellable) !== null;
  const { loading, reading, suspended, muted, byRule, deniedByRule } = useSyncExternalStore(
    session.subscribe,
    session.getSnapshot,
  );
  const size = useTerminalSize(sizes);
  const readonly = Boolean(props.readonly);
  const frame = core.frameOf({ snapshot, activity, ui, dialog, size, bindings, readonly, cancellable, muted });
  const { view } = frame;

  const runId = view.run?.id ?? null;
  useEffect(() => props.watch?.focus(runId), [props.watch, runId]);
  // Only the previewed pane streams; none while the terminal is handed to an attached pane.
  const previewed = suspended ? null : previewMember(view.run, view.member, ui.focus);
  const previewedRun = previewed ? view.run : null;
  useEffect(() => {
    props.watch?.preview?.(previewedRun, previewed);
  }, [props.watch, previewedRun, previewed]);
  useEffect(() => () => props.watch?.preview?.(null, null), [props.watch]);

  const inPrompt = useMemo(
    () => () =>
      core.ui.getState().filtering || ['request', 'send'].includes(core.dialogs.getState().current?.kind ?? ''),
    [core],
  );
  useInputRouter(core.controller, !suspended, inPrompt);

  return (
    <ThemeContext.Provider value={theme}>
      <ClockContext.Provider value={clock}>
        <Screen
          layout={frame.layout}
          snapshot={snapshot}
          loading={loading}
          reading={reading}
          muted={muted}
          byRule={byRule}
          deniedByRule={deniedByRule}
          activity={activity}
          ui={ui}
          view={view}
          dialog={dialog}
          hints={frame.hints}
          bindings={bindings}
          readonly={readonly}
          contextThreshold={props.contextThreshold ?? 70}
          watch={props.watch ?? null}
          help={frame.help}
          dialogBox={frame.dialogBox}
        />
      </ClockContext.Provider>
    </ThemeContext.Provider>
  );
}
