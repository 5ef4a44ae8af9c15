/** The contract between the control room (or a CLI verb) and the actions. */
import type { AppContext } from '../context/context.js';
import type { Run, Snapshot } from '../model/model.js';
import type { ActivityStore } from './activity.js';
import type { ActionDetail, RuleAnswer } from './detail.js';

export const ACTION_KINDS = [
  'checkpoint',
  'rehydrate',
  'terminate',
  'grant',
  'request',
  'attach',
  'answer',
  'send',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** What the operator asked for. */
export interface ActionRequest {
  kind: ActionKind;
  /** A run id or unique prefix of one. */
  run: string;
  /** grant: the gate id. */
  gate?: string | undefined;
  /** request: the checkpoint name and message. */
  name?: string | undefined;
  message?: string | undefined;
  /** terminate: member names (empty = the run's live teammates, never a lead). attach: one member. */
  members?: string[] | undefined;
  /** checkpoint: seconds to wait for the handoff. */
  timeoutSec?: number | undefined;
  /** answer: the option typed (its digit, or y / n). */
  choice?: string | undefined;
  /** send: the line typed. */
  text?: string | undefined;
  /** answer: the prompt the operator saw (its signature); refused when the pane shows another. */
  expect?: string | undefined;
  /**
   * answer: the held permission request the operator means, `<epoch>-<pid>` optionally with
   * `:<sha256 of its input>` (or 8+ hex of it), as status shows it; refused when it is not held.
   */
  request?: string | undefined;
  /** answer: decided by a rule, for this held request only: through the hook, never typed. */
  byRule?: RuleAnswer | undefined;
}

/** One exact effect, shown in the confirm dialog and printed by --dry-run. */
export interface Effect {
  /**
   * `tmux` (a tmux command line), `write`, `create`, `append`, `delete`, `signal`, `run` (a hook), `wait`,
   * `http` (a request to a service's API).
   */
  kind: 'tmux' | 'write' | 'create' | 'append' | 'delete' | 'signal' | 'run' | 'wait' | 'http';
  /** The exact text: `tmux -L x send-keys -t %3 -l -- /checkpoint`, `write /abs/path (JSON …)`. */
  text: string;
}

/** A checked request: either refused (with the reason) or the exact effects it will have. */
export interface ActionPlan {
  request: ActionRequest;
  run: Run | null;
  /** One line: "Checkpoint tina:auth (lead team-lead in %3)". */
  title: string;
  effects: Effect[];
  /** Why the action is refused; null when it may go ahead. */
  refusal: string | null;
  /** Whether it changes anything (attach does not). */
  destructive: boolean;
  /** Who or what it acts on, for the activity pane and the audit log: a pane, member names, a gate, a file. */
  target?: string | null | undefined;
  /** The resolved details the effects were computed from; runAction executes exactly these. */
  detail?: ActionDetail | undefined;
  /**
   * What the action approves, whole, one line each (an answer through the hook: the request, its
   * hash, and every field of its input, a command one part per line): printed by the CLI and
   * --dry-run, shown by the confirm dialog.
   */
  approves?: string[] | undefined;
}

/** Progress while an action runs, for the activity pane. */
export interface ActionProgress {
  message: string;
  elapsedMs?: number;
  timeoutMs?: number;
  waitingFor?: string;
}

export interface ActionOutcome {
  status: 'done' | 'refused' | 'failed' | 'cancelled' | 'timeout';
  message: string;
  details?: string[];
  /** What was approved, whole, one line each (an answer through the hook); kept in the audit line. */
  approved?: string[];
}

/** What an action needs from its caller. */
export interface ActionEnv {
  ctx: AppContext;
  /** The current snapshot (re-read by the action when it needs fresher state). */
  snapshot: () => Snapshot;
  activity?: ActivityStore | undefined;
}

export interface RunHooks {
  signal?: AbortSignal | undefined;
  onProgress?: ((p: ActionProgress) => void) | undefined;
  /** checkpoint: after 30 s, teammates still alive are offered; resolve with the names to terminate. */
  offerTerminate?: ((alive: string[]) => Promise<string[]>) | undefined;
}
