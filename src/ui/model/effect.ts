/**
 * The effects `update` asks for (the model's file explains the flow): plain data, run by the
 * effect runner, so the screen's state changes only in `update` and the world only in the runner.
 */
import type { ActionPlan, ActionRequest } from '../../kit/types.js';

/** What `update` asks the outside world to do; the effect runner does it. */
export type Effect =
  /** Plan a request and open its confirm dialog (or its refusal). */
  | { kind: 'ask'; request: ActionRequest }
  /** Show why an action cannot run, and record the refusal (activity pane, audit log). */
  | { kind: 'refuse'; request: Pick<ActionRequest, 'kind' | 'run'>; title: string; reason: string }
  /** Run a confirmed plan. */
  | { kind: 'start'; plan: ActionPlan }
  /** Answer a straggler offer with the names to force-terminate (none: decline). */
  | { kind: 'answer-offer'; offerId: number; names: readonly string[] }
  | { kind: 'cancel-running' }
  | { kind: 'attach'; paneId: string; label: string; runId: string | null }
  /** Check a checkpoint request's name before its message is typed (answered by `name-checked`). */
  | { kind: 'check-name'; request: ActionRequest }
  | { kind: 'toggle-mute' }
  /** Send a tick after `ms` (the one timer of the screen's clock; model/tick.ts bounds it). */
  | { kind: 'tick-after'; ms: number }
  | { kind: 'quit' };
