/** What the systems' readers share: the settings a reader gets and the Claude team shape other systems take in. */
import type { Member, Problem, Task } from '../model/model.js';

/** Settings a source reads with (from the config file). */
export interface ReadSettings {
  /** "Now" in epoch ms, injected so tests are deterministic. */
  now: number;
  staleHandoffMinutes: number;
  heartbeatStaleSec: number;
  contextThresholdPct: number;
  /**
   * The working directories of the tmux panes on the server, when the caller knows them (readers
   * never run tmux): a pane sitting in a project says its workflow is live.
   */
  paneCwds?: readonly string[];
  /**
   * The tmux session of each pane on tower's own server (pane id → session name), when the caller
   * knows them: a tina run's session team is tied to it by a member's pane in the run's sessions.
   */
  paneSessions?: ReadonlyMap<string, string>;
  /**
   * Tower's own environment, when the caller passes it: a system may read where its service is from
   * it (the harness: `PAPERCUSP_OPERATOR_BASE` / `OPERATOR_BASE`, the operator's API).
   */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_READ_SETTINGS: Omit<ReadSettings, 'now'> = {
  staleHandoffMinutes: 60,
  heartbeatStaleSec: 300,
  contextThresholdPct: 70,
};

/** One Claude Code team: `teams/<name>/config.json` with its `tasks/<name>/` folder. */
export interface Team {
  name: string;
  /** Absolute path of `teams/<name>/config.json`. */
  configFile: string;
  /** Absolute path of `tasks/<name>/` (may not exist). */
  tasksDir: string;
  description: string | null;
  createdAt: string | null;
  /** The cwd the members run in (first member's), used to tie a team to a project root. */
  cwd: string | null;
  /** The lead's Claude Code session (`leadSessionId`): its transcript says how full its context is. */
  leadSessionId?: string | null;
  /** When the team's files last changed (ms): the newest of its config and its task folder. */
  changedAt?: number | null;
  /** A member's `isActive` is true: with no task and nothing else known, the team is not known to be idle. */
  saysActive?: boolean;
  /** Members with `state` set to 'in-process' where the file says so, else 'unknown' (liveness is applied later). */
  members: Member[];
  tasks: Task[];
  problems: Problem[];
}
