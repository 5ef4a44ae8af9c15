/**
 * Runs the operator's actions for the effect runner: plan → confirm dialog (or refusal) → run,
 * with progress in the activity pane, Esc cancelling a waiting action, and the straggler offer as a
 * dialog. The dialogs it opens go to the model as messages; the model hears which action can be
 * cancelled through subscribe/getCancellable.
 */
import type { ActionKind, ActionOutcome, ActionPlan, ActionRequest, RunHooks } from '../../kit/types.js';
import type { ActivityStore } from '../../kit/activity.js';
import type { ControlRoomActions } from '../actions-port.js';
import type { DialogAction } from '../state/dialog-state.js';

/** Actions that wait a long time and can be cancelled with Esc. */
const CANCELLABLE: readonly ActionKind[] = ['checkpoint', 'rehydrate'];

interface Running {
  kind: ActionKind;
  abort: AbortController;
  offers: Set<number>;
}

export interface RunnerDeps {
  actions: ControlRoomActions;
  activity: ActivityStore;
  /** Where the dialogs it opens and closes go (the model's update, as a message). */
  dialogs: { dispatch(action: DialogAction): void };
  readonly: boolean;
}

export class ActionRunner {
  private readonly running = new Map<number, Running>();
  private readonly offers = new Map<number, (names: string[]) => void>();
  private nextOffer = 1;
  private cancellable: ActionKind | null = null;
  /** Plans asked of another box and not answered yet, by what was asked: one at a time each. */
  private readonly asking = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private disposed = false;

  constructor(private readonly deps: RunnerDeps) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The kind of the newest running action Esc would cancel, or null. */
  getCancellable = (): ActionKind | null => this.cancellable;

  /** Whether actions are refused (--readonly): a key that would prompt for text says so first. */
  get readonly(): boolean {
    return this.deps.readonly;
  }

  /**
   * Why a request would be refused, known before anything more is typed (a checkpoint name that is
   * no name, or pending already), or null: plans of this box only (another box's come later).
   */
  refusalOf(request: ActionRequest): string | null {
    try {
      const planned = this.deps.actions.plan(request);
      return planned instanceof Promise ? null : planned.refusal;
    } catch {
      return null;
    }
  }

  /** Plans a request and opens its confirm dialog (which shows the refusal when refused). */
  ask(request: ActionRequest): void {
    const key = JSON.stringify([
      request.kind,
      request.run,
      request.gate ?? null,
      request.name ?? null,
      request.members ?? null,
    ]);
    if (this.asking.has(key)) return;
    let planned: ActionPlan | Promise<ActionPlan>;
    try {
      planned = this.deps.actions.plan(request);
    } catch (err) {
      this.refuse(request, `${request.kind} ${request.run}`, `could not plan it: ${errorText(err)}`);
      return;
    }
    // A run of another box is planned on that box: the dialog opens when its plan arrives. Until
    // then the activity pane says so, and pressing the key again asks nothing more.
    if (planned instanceof Promise) {
      this.asking.add(key);
      const id = this.deps.activity.push({
        action: request.kind,
        runId: request.run,
        target: null,
        status: 'running',
        message: `asking the run's box for the plan of ${request.kind}…`,
      });
      planned
        .then(
          (plan) => {
            this.deps.activity.update(id, {
              status: 'done',
              message: `plan of ${request.kind} received from the run's box`,
            });
            if (!this.disposed) this.open(plan);
          },
          (err: unknown) => {
            this.deps.activity.update(id, {
              status: 'failed',
              message: `no plan of ${request.kind}: ${errorText(err)}`,
            });
            this.refuse(request, `${request.kind} ${request.run}`, `could not plan it: ${errorText(err)}`);
          },
        )
        .finally(() => this.asking.delete(key));
      return;
    }
    this.open(planned);
  }

  private open(plan: ActionPlan): void {
    // Read-only is enforced here too, whatever the planner says: nothing that changes things runs.
    if (this.deps.readonly && plan.destructive && !plan.refusal) {
      plan = {
        ...plan,
        refusal:
          `read-only mode: tower was started with --readonly (or readonly in the config), so ` +
          `"${plan.title}" is not run`,
      };
    }
    this.deps.dialogs.dispatch({ type: 'open', dialog: { kind: 'confirm', plan, scroll: 0 } });
    // A refused plan is still handed to run(), which only records it (activity pane, audit log).
    if (plan.refusal) this.start(plan);
  }

  /**
   * Shows why something cannot be done, and records the refusal like any refused plan (activity
   * pane, audit log), as the CLI does.
   */
  refuse(request: Pick<ActionRequest, 'kind' | 'run'>, title: string, reason: string): void {
    this.deps.dialogs.dispatch({ type: 'open', dialog: { kind: 'refusal', title, reason } });
    this.start({
      request,
      run: null,
      title,
      effects: [],
      refusal: reason,
      destructive: request.kind !== 'attach',
      target: null,
    });
  }

  /** Cancels the newest cancellable running action; false when there is none. */
  cancelRunning(): boolean {
    const entry = [...this.running].reverse().find(([, r]) => CANCELLABLE.includes(r.kind) && !r.abort.signal.aborted);
    if (!entry) return false;
    const [id, r] = entry;
    r.abort.abort();
    this.deps.activity.update(id, { message: `cancelling ${r.kind}…` });
    this.changed();
    return true;
  }

  /** Hands the terminal to a pane; the outcome lands in the activity pane. */
  attach(paneId: string, label: string, runId: string | null): void {
    const id = this.deps.activity.push({
      action: 'attach',
      runId,
      target: `${label} ${paneId}`,
      status: 'running',
      message: `attaching to ${paneId}`,
    });
    this.settle(id, this.deps.actions.attach(paneId, runId));
  }

  /** Stops everything (the screen is going away): running actions are aborted, offers declined. */
  dispose(): void {
    this.disposed = true;
    for (const r of this.running.values()) r.abort.abort();
    for (const [offerId, resolve] of this.offers) {
      this.offers.delete(offerId);
      resolve([]);
    }
  }

  /** Runs a confirmed plan (a refused one is only recorded), its progress in the activity pane. */
  start(plan: ActionPlan): void {
    const { activity } = this.deps;
    const id = activity.push({
      action: plan.request.kind,
      runId: plan.run?.id ?? plan.request.run,
      target: plan.target ?? null,
      status: 'running',
      message: plan.title,
    });
    const running: Running = { kind: plan.request.kind, abort: new AbortController(), offers: new Set() };
    this.running.set(id, running);
    this.changed();
    const hooks: RunHooks = {
      signal: running.abort.signal,
      onProgress: (p) => {
        const progress =
          p.elapsedMs !== undefined && p.timeoutMs !== undefined
            ? { elapsedMs: p.elapsedMs, timeoutMs: p.timeoutMs, waitingFor: p.waitingFor ?? p.message }
            : undefined;
        activity.update(id, { message: p.message, progress });
      },
      offerTerminate: (alive) => this.offer(id, running, plan.run?.id ?? plan.request.run, alive),
    };
    let result: Promise<ActionOutcome>;
    try {
      result = this.deps.actions.run(plan, hooks);
    } catch (err) {
      result = Promise.reject(err);
    }
    this.settle(id, result);
  }

  private settle(id: number, result: Promise<ActionOutcome>): void {
    result
      .then(
        (o) =>
          this.deps.activity.update(id, {
            status: o.status,
            message: o.message,
            details: o.details,
            progress: undefined,
          }),
        (err: unknown) =>
          this.deps.activity.update(id, { status: 'failed', message: errorText(err), progress: undefined }),
      )
      .finally(() => {
        const r = this.running.get(id);
        if (!r) return;
        this.running.delete(id);
        for (const offerId of r.offers) this.answerOffer(offerId, []);
        this.changed();
      });
  }

  private offer(id: number, running: Running, runId: string, alive: string[]): Promise<string[]> {
    if (this.disposed || running.abort.signal.aborted || alive.length === 0) return Promise.resolve([]);
    const offerId = this.nextOffer++;
    running.offers.add(offerId);
    this.deps.activity.update(id, {
      message:
        `${alive.length} teammate${alive.length === 1 ? '' : 's'} still alive: asking whether ` + `to force-terminate`,
    });
    return new Promise<string[]>((resolve) => {
      this.offers.set(offerId, resolve);
      running.abort.signal.addEventListener('abort', () => this.answerOffer(offerId, []), { once: true });
      this.deps.dialogs.dispatch({ type: 'open', dialog: { kind: 'offer-terminate', offerId, runId, alive } });
    });
  }

  /** Answers a straggler offer: the names to force-terminate (none: decline). */
  answerOffer(offerId: number, names: readonly string[]): void {
    this.deps.dialogs.dispatch({ type: 'drop-offer', offerId });
    const resolve = this.offers.get(offerId);
    if (!resolve) return;
    this.offers.delete(offerId);
    resolve([...names]);
  }

  private changed(): void {
    const newest = [...this.running.values()]
      .reverse()
      .find((r) => CANCELLABLE.includes(r.kind) && !r.abort.signal.aborted);
    const next = newest?.kind ?? null;
    if (next === this.cancellable) return;
    this.cancellable = next;
    for (const l of this.listeners) l();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
