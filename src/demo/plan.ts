/** The shape of the demo: runs that write their files, and the tmux sessions their agents run in. */

/** Where the sandbox puts things, and the clock and pace it is built with. */
export interface SandboxLayout {
  /** The sandbox root (real path). */
  dir: string;
  /** `<dir>/claude`: the sandbox's own Claude Code config dir. */
  claudeDir: string;
  /** `<dir>/projects`: one folder per project. */
  projectsDir: string;
  /** Build time, epoch ms: every timestamp is relative to it. */
  now: number;
  /** Agent speed multiplier. */
  speed: number;
}

/** Flags of an agent command line (`--key value`; `true` is a bare `--key`). */
export type AgentFlags = Record<string, string | number | boolean | undefined>;

/** One pane: the member it plays, the agent that runs in it, and the directory it runs in. */
export interface PaneSpec {
  member: string;
  role: string;
  cwd: string;
  flags: AgentFlags;
}

/** A tmux session and its panes (the first pane is created with the session). */
export interface SessionSpec {
  name: string;
  panes: PaneSpec[];
}

/** A member of a Claude Code team; `pane` names the pane it runs in, or says it runs in-process. */
export interface MemberSpec {
  name: string;
  agentType: string;
  model: string;
  cwd: string;
  pane: { session: string; member: string } | 'in-process';
}

/** A Claude Code team; the first member is its lead. */
export interface TeamSpec {
  name: string;
  description: string;
  createdAt: number;
  leadSessionId: string;
  members: MemberSpec[];
}

/** One task of a team's task folder. */
export interface TaskSeed {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: 'pending' | 'in_progress' | 'completed';
  owner: string | null;
  blockedBy: string[];
}

/** One run of the sandbox. */
export interface DemoRun {
  /** What the run shows, one line (printed by `tower demo --no-ui`). */
  summary: string;
  /** The project root the run lives in; null for a team with no state dir of its own. */
  root: string | null;
  /** Writes the run's state files. */
  write(): void;
  sessions: SessionSpec[];
  /** Teams whose config is written once the pane ids are known. */
  teams: TeamSpec[];
}

/** The key of a pane in the id map: `<session>/<member>`. */
export function paneKey(session: string, member: string): string {
  return `${session}/${member}`;
}
