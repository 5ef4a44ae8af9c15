/**
 * A test terminal for the control room: ink renders into a fake stdout of a chosen size (each write
 * is one full frame, as ink's debug mode gives) and reads real key bytes from a fake stdin, the
 * same stream shapes ink-testing-library uses. ink-testing-library itself fixes the width at 100
 * columns and has no rows, so sized screens need this. Waiting uses test/helpers/wait-for.ts.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactElement } from 'react';
import { createElement } from 'react';
import stringWidth from 'string-width';
import type { ActionOutcome, ActionPlan, ActionRequest, RunHooks } from '../../src/kit/types.js';
import type { Snapshot } from '../../src/model/model.js';
import { ActivityStore } from '../../src/kit/activity.js';
import type { ControlRoomActions } from '../../src/ui/actions-port.js';
import { ControlRoom } from '../../src/ui/app.js';
import type { ControlRoomProps } from '../../src/ui/app.js';
import { createManualClock } from '../../src/ui/clock.js';
import { waitFor } from '../helpers/wait-for.js';
import { NOW, fixtureSnapshot } from './fixtures.js';
import { memoryStore } from '../helpers/memory-store.js';

/** A stdout of a given size that keeps every frame. */
export class TestStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    // ink's own (empty) output: the screen writes its frames itself.
    if (frame === '') return true;
    this.frames.push(frame);
    return true;
  };
  lastFrame = (): string => this.frames[this.frames.length - 1] ?? '';
  /** Changes the size and tells ink, as a terminal resize does. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/** A stdin that delivers written bytes to ink's reader. */
export class TestStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (data: string): void => {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  };
  read = (): string | null => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** A rendered tree in a test terminal. */
export interface TestScreen {
  stdout: TestStdout;
  stdin: TestStdin;
  frame(): string;
  /** Presses keys (raw bytes), one write each, waiting a tick after each so ink parses them apart. */
  press(...keys: string[]): Promise<void>;
  unmount(): void;
  waitUntilExit(): Promise<unknown>;
}

/** Renders `node` in a `columns` × `rows` test terminal. */
export function renderScreen(node: ReactElement, columns = 100, rows = 30): TestScreen {
  const stdout = new TestStdout(columns, rows);
  const stdin = new TestStdin();
  const stderr = new TestStdout(columns, rows);
  const instance = render(node, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    stdout,
    stdin,
    frame: () => stdout.lastFrame(),
    async press(...keys) {
      for (const k of keys) {
        stdin.write(k);
        // A lone Esc is held back by ink until the next tick (it may start a sequence).
        await new Promise((r) => setImmediate(r));
      }
    },
    unmount: () => instance.unmount(),
    waitUntilExit: () => instance.waitUntilExit(),
  };
}

export { waitFor };

/** Waits until the current frame contains `text`; on timeout the error shows the last frame. */
export async function waitForText(screen: TestScreen, text: string, timeoutMs = 5000): Promise<void> {
  try {
    await waitFor(() => screen.frame().includes(text), timeoutMs, { what: `"${text}" on screen` });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nlast frame:\n${screen.frame()}`);
  }
}

/** Lines of a frame wider than `columns` cells (should be none). */
export function overwideLines(frame: string, columns: number): string[] {
  return frame.split('\n').filter((l) => stringWidth(l.replace(/\u001b\[[0-9;]*m/g, '')) > columns);
}

export { memoryStore };

/** Actions that record what they were asked and answer with canned plans and outcomes. */
export class RecordingActions implements ControlRoomActions {
  planned: ActionRequest[] = [];
  ran: { plan: ActionPlan; hooks: RunHooks }[] = [];
  attached: string[] = [];
  /** Makes the plan for a request (default: a plan with one effect naming the request). */
  planFor: (req: ActionRequest) => ActionPlan = (req) => ({
    request: req,
    run: null,
    title: `${req.kind} ${req.run}${req.gate ? ` gate ${req.gate}` : ''}`,
    effects: [{ kind: 'tmux', text: `tmux send-keys -t %1 -l -- /${req.kind}` }],
    refusal: null,
    destructive: req.kind !== 'attach',
  });
  /** What run resolves with; replace to hold a run open. */
  runWith: (plan: ActionPlan, hooks: RunHooks) => Promise<ActionOutcome> = async (plan) =>
    plan.refusal ? { status: 'refused', message: plan.refusal } : { status: 'done', message: 'done' };

  plan(req: ActionRequest): ActionPlan {
    this.planned.push(req);
    return this.planFor(req);
  }
  run(plan: ActionPlan, hooks: RunHooks): Promise<ActionOutcome> {
    this.ran.push({ plan, hooks });
    return this.runWith(plan, hooks);
  }
  async attach(paneId: string): Promise<ActionOutcome> {
    this.attached.push(paneId);
    return { status: 'done', message: `back from ${paneId}` };
  }
}

/** A control room on the fixture snapshot with recording actions and a hand-moved clock. */
export function renderRoom(
  opts: { columns?: number; rows?: number; snapshot?: Snapshot; props?: Partial<ControlRoomProps> } = {},
) {
  const store = memoryStore(opts.snapshot ?? fixtureSnapshot());
  const activity = new ActivityStore();
  const actions = new RecordingActions();
  const clock = createManualClock(NOW);
  let quits = 0;
  const screen = renderScreen(
    createElement(ControlRoom, { store, activity, actions, clock, color: false, onQuit: () => quits++, ...opts.props }),
    opts.columns ?? 100,
    opts.rows ?? 30,
  );
  return { screen, store, activity, actions, clock, quits: () => quits };
}
