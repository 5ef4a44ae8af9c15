/** What the control room needs from the actions: plan, run, attach. Tests pass a recording one. */
import type { ActionOutcome, ActionPlan, ActionRequest, RunHooks } from '../kit/types.js';

/** The actions as the control room calls them. */
export interface ControlRoomActions {
  /**
   * Checks a request and returns its exact effects, or the refusal (a run of another box is planned there, so
   * later).
   */
  plan(req: ActionRequest): ActionPlan | Promise<ActionPlan>;
  /** Runs a plan the operator confirmed; progress and the straggler offer come through the hooks. */
  run(plan: ActionPlan, hooks: RunHooks): Promise<ActionOutcome>;
  /** Hands the terminal to the pane (suspending the screen) and resolves when the operator is back. */
  attach(paneId: string, runId?: string | null): Promise<ActionOutcome>;
}
