/** What every action's plan and run share: the planned parts, the running context, and failures as values. */
import { TmuxError } from '../tmux/errors.js';
import type { ActionDetail } from './detail.js';
import type { Run } from '../model/model.js';
import type { ActionEnv, ActionOutcome, ActionPlan, ActionProgress, ActionRequest, Effect, RunHooks } from './types.js';
import { UnsafePathError } from './safety.js';

/** A per-action planner's answer: the effects and details, or a refusal. */
export type PlanParts =
  | { refusal: string; title?: string | undefined; target?: string | null | undefined }
  | {
      refusal: null;
      title: string;
      target: string | null;
      effects: Effect[];
      detail: ActionDetail;
      destructive: boolean;
      /** What it approves, whole (an answer through the hook: the request's every field). */
      approves?: string[] | undefined;
      /**
       * What the plan pinned down of the request (an answer through the hook: the request's id and
       * hash): a plan run again elsewhere (on its box) answers that request or none.
       */
      pin?: Partial<ActionRequest> | undefined;
    };

/** A refusal with its reason. */
export function refuse(reason: string, title?: string, target?: string | null): PlanParts {
  return { refusal: reason, title, target };
}

/** What a running action is given. */
export interface Execution {
  env: ActionEnv;
  hooks: RunHooks;
  /** The run acted on. */
  run: Run;
  /** Reports progress to the caller and the activity pane. */
  progress(p: ActionProgress): void;
  /** Runs another action (audited on its own line), e.g. a force-terminate offered during a checkpoint. */
  runAction(plan: ActionPlan): Promise<ActionOutcome>;
}

/** A full plan from a request and a planner's parts. */
export function toActionPlan(request: ActionRequest, run: Run | null, parts: PlanParts): ActionPlan {
  if (parts.refusal !== null) {
    return {
      request,
      run,
      title: parts.title ?? `${request.kind} ${run?.id ?? request.run}`,
      effects: [],
      refusal: parts.refusal,
      destructive: request.kind !== 'attach',
      target: parts.target ?? null,
    };
  }
  return {
    request: parts.pin ? { ...request, ...parts.pin } : request,
    run,
    title: parts.title,
    effects: parts.effects,
    refusal: null,
    destructive: parts.destructive,
    target: parts.target,
    detail: parts.detail,
    ...(parts.approves ? { approves: parts.approves } : {}),
  };
}

/** Thrown inside an action to end it with a given outcome (a refusal found at run time, a clear failure). */
export class ActionStop extends Error {
  override readonly name = 'ActionStop';
  constructor(
    readonly status: 'failed' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

/** The outcome for an error that escaped an action: typed tmux errors keep their words. */
export function outcomeOfError(err: unknown): ActionOutcome {
  if (err instanceof ActionStop) return { status: err.status, message: err.message };
  if (err instanceof TmuxError) return { status: 'failed', message: `${err.message}${hintFor(err)}` };
  if (err instanceof UnsafePathError) return { status: 'refused', message: err.message };
  const e = err as NodeJS.ErrnoException;
  return { status: 'failed', message: e?.message ? e.message : String(err) };
}

function hintFor(err: TmuxError): string {
  if (err.kind === 'no-server') return ' (no tmux server on this socket: check -L/-S)';
  if (err.kind === 'no-such-pane') return ' (the pane is gone)';
  return '';
}

/** Whether an error means the pane (or the whole server) no longer exists. */
export function isPaneGone(err: unknown): boolean {
  return err instanceof TmuxError && (err.kind === 'no-such-pane' || err.kind === 'no-server');
}
