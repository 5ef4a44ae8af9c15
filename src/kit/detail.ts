/** What a checked plan resolved, per action: the exact inputs runAction executes. */
import type { AgentId, Gate, System } from '../model/model.js';

/** A held request answered by a rule: which rule, which request, and what it approves or refuses. */
export interface RuleAnswer {
  rule: string;
  request: string;
  /** The request's whole input as the rule read it: the hook's request must still hold exactly this. */
  input: string;
  box: string;
  /** The member whose request it is, on that box (its audit line names it; older lines lack it). */
  member?: string;
}

/**
 * The pane's first process as the snapshot saw it: its pid and start (clock ticks since boot, null
 * when /proc did not say). Checked again right before an effect: a pane whose first process is
 * another now is another agent's, whatever its `%N`.
 */
export interface PaneProcess {
  pid: number;
  start: number | null;
}

/** Where the lead's keystrokes go: its pane, or the active pane of its tina session when the team file names none. */
export interface LeadTarget {
  name: string;
  /** The tmux target typed into: `%3`, or `=tina-<feature>-phase-<N>:`. */
  target: string;
  /** Said in messages: "team-lead in %3", "team-lead in session tina-auth-phase-2". */
  label: string;
  /** The Claude Code swarm server holding the pane (`claude-swarm-<pid>`); null or absent: tower's own server. */
  server?: string | null;
  /** The pane's first process when the plan was made (checked again before the effect). */
  process?: PaneProcess;
  /** The agent CLI the snapshot saw in the pane, when it knew one. */
  agent?: AgentId;
}

/** A member pane chosen for force-terminate. */
export interface TerminateTarget {
  name: string;
  paneId: string;
  team: string | null;
  lead: boolean;
  /** The Claude Code swarm server holding the pane (`claude-swarm-<pid>`); null or absent: tower's own server. */
  server?: string | null;
  /** The pane's first process when the plan was made (checked again before the effect). */
  process?: PaneProcess;
}

/** checkpoint: the lead, the command, the files compared and written, the waits. */
export interface CheckpointDetail {
  kind: 'checkpoint';
  lead: LeadTarget;
  command: string;
  /** tina: `<stateDir>/checkpoint-needed`; null for a Claude team (no signal file). */
  signalFile: string | null;
  /** Whether the signal has to be written first (it did not exist when planned). */
  writeSignal: boolean;
  /** tina: `<stateDir>/phase-<N>/handoff.md`, or null when the phase is unknown. */
  handoffFile: string | null;
  /** Written on timeout (tina only). */
  escalationFile: string | null;
  stateDir: string | null;
  timeoutMs: number;
  stragglerAfterMs: number;
  /** Working-team teammates with a pane: checked for liveness after stragglerAfterMs. */
  teammates: TerminateTarget[];
  /** The lead's CLI when `command` is its own checkpoint (Codex's `/compact`), confirmed on its screen. */
  own?: AgentId;
}

/** rehydrate: the lead, the two commands, the signal to delete, the waits. */
export interface RehydrateDetail {
  kind: 'rehydrate';
  lead: LeadTarget;
  clear: string;
  rehydrate: string;
  /** Deleted after the rehydrate command is typed (tina only). */
  signalFile: string | null;
  stateDir: string | null;
  promptTimeoutMs: number;
  timeoutMs: number;
  /** The lead's CLI when `clear` is its own (Codex's `/new`): confirmed on its screen, `rehydrate` not typed. */
  own?: AgentId;
}

/** terminate: the member panes, what was skipped and why, the SIGTERM grace. */
export interface TerminateDetail {
  kind: 'terminate';
  targets: TerminateTarget[];
  /** Members asked for that are already gone or have no pane, with the reason. */
  skipped: string[];
  graceMs: number;
}

/** grant: the gate and the file that grants it, in the run's own system. */
export interface GrantDetail {
  kind: 'grant';
  /** The system whose grant writes the file. */
  via: System;
  gate: Gate;
  stateDir: string;
  /**
   * The file written: the `.granted` sentinel, `.resume-signal`, or `phase.json` (harness under its operator:
   * the URL POSTed).
   */
  file: string;
  /** harness under its operator: the grant endpoint POSTed instead of any file; absent or null otherwise. */
  url?: string | null;
  /** harness: the pending `checkpoint-<name>.md` that must still exist. */
  pendingFile: string | null;
  /** sage/dotagent: the lock that makes two grants at once give one grant and one refusal. */
  lockFile: string | null;
  /** sage: the files that raised the gate; an APPROVED newer than all of them already answers it. */
  raisedBy: string[];
}

/** request: the checkpoint file to create and the hook to run. */
export interface RequestDetail {
  kind: 'request';
  name: string;
  stateDir: string;
  root: string;
  file: string;
  message: string;
  /** `<stateDir>/hooks/on-checkpoint-fired.sh` when present and executable, else null. */
  hook: string | null;
  hookLogDir: string;
  /** harness under its operator: the request endpoint POSTed instead of writing the file and running the hook. */
  url?: string | null;
}

/** attach: the pane to switch to or attach to. */
export interface AttachDetail {
  kind: 'attach';
  paneId: string;
  /** The swarm server holding the pane; null or absent: tower's own server. */
  server?: string | null;
  /** The pane's first process when the plan was made (checked again before the effect). */
  process?: PaneProcess;
}

/** answer: the member's pane and the option typed into its prompt. */
export interface AnswerDetail {
  kind: 'answer';
  member: string;
  paneId: string;
  /** The swarm server holding the pane; null or absent: tower's own server. */
  server?: string | null;
  /** The pane's first process when the plan was made (checked again before the effect). */
  process?: PaneProcess;
  choice: string;
  /**
   * The agent CLI the pane runs, as the snapshot saw it: its way of reading and typing is used. Absent:
   * Claude Code's.
   */
  agent?: AgentId;
  /** The prompt's signature the operator saw, or null (the CLI: any prompt that has the option). */
  expect: string | null;
  /** When that prompt was first seen (epoch ms), or null: keys wait until the dialog is old enough to take them. */
  seenAt?: number | null;
  /**
   * The member whose request it is, when its dialog is drawn in another member's pane (a teammate's, in its
   * lead's).
   */
  asking?: string | null;
  confirmMs: number;
  /**
   * Answered through tower's PermissionRequest hook rather than typed: the request held open for
   * the pane (its file, where the answer goes, until when it is held) and the decision written.
   */
  hook?: {
    id: string;
    /** sha256 of the request's tool and input when planned: the request must still hold exactly this. */
    hash?: string | null;
    dir: string;
    file: string;
    answerFile: string;
    until: number;
    behavior: 'allow' | 'deny';
    /** The request's whole input as tower read it (what is approved), and whether the plan's line cut it. */
    input?: string | null;
    cut?: boolean;
    /** The socket of the pane's server: the request must still come from it. */
    socket?: string;
  } | null;
  /** Why the hook way was not taken although a request was held (said in the outcome). */
  keysBecause?: string | null;
  /** Decided by a rule: answered through the hook or not at all (no key is typed). */
  byRule?: RuleAnswer;
  /**
   * Answered through its CLI's server: what the plan showed it approves (the request, its whole
   * input, the question and the option). The server is answered only while it lists that very
   * request with that very input, so the outcome and the audit line carry these lines.
   */
  approves?: string[];
}

/** send: the member's pane and the line typed into it. */
export interface SendDetail {
  kind: 'send';
  member: string;
  paneId: string;
  /** The swarm server holding the pane; null or absent: tower's own server. */
  server?: string | null;
  /** The pane's first process when the plan was made (checked again before the effect). */
  process?: PaneProcess;
  text: string;
  /** The agent CLI the pane runs, as the snapshot saw it: its way of typing is used. Absent: Claude Code's. */
  agent?: AgentId;
  confirmMs: number;
}

/** The resolved details of a plan, one shape per action. */
export type ActionDetail =
  | CheckpointDetail
  | RehydrateDetail
  | TerminateDetail
  | GrantDetail
  | RequestDetail
  | AttachDetail
  | AnswerDetail
  | SendDetail;
