/**
 * The closed sets of values the snapshot's fields take. Apart from model.ts and model-schema.ts so
 * that both use them and neither imports the other's values.
 */
export const SYSTEMS = ['tina', 'claude-team', 'harness', 'sage', 'dotagent', 'agents'] as const;
export type System = (typeof SYSTEMS)[number];

export const RUN_STATUSES = ['running', 'waiting', 'blocked', 'complete', 'idle', 'unknown'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * `not-its-pane`: the member's `%N` is alive, but what tower knows of that pane (its server, its
 * process's start, where it works, the lead's process) says another agent holds it.
 */
export const MEMBER_STATES = ['alive', 'dead', 'in-process', 'unknown', 'not-its-pane'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

/** What a member's pane shows it doing (see the README for how it is read). */
export const ACTIVITIES = ['working', 'waiting', 'idle', 'unknown'] as const;
export type Activity = (typeof ACTIVITIES)[number];

/**
 * The agent CLI a member runs (src/agents/ holds one module per CLI). `unknown`: a pane whose CLI
 * tower does not know (still listed, with its pane and what the screen shows), or a word a newer
 * tower sent.
 */
export const AGENTS = ['claude-code', 'codex', 'opencode', 'gemini-cli', 'unknown'] as const;
export type AgentId = (typeof AGENTS)[number];

/**
 * Each agent CLI's short name in the team pane (its module's `badge`): kept here, a few bytes, so the
 * screen names a member's CLI without loading the agent modules on its start path.
 */
export const AGENT_BADGES: Readonly<Record<Exclude<AgentId, 'unknown'>, string>> = {
  'claude-code': 'cc',
  codex: 'cx',
  opencode: 'oc',
  'gemini-cli': 'gm',
};

/**
 * Where a member's activity was read from, exactest first: the CLI's own session file (`session`),
 * its server's word (`app-server`, `events`), its own log of the turn (`rollout`), hooks, the screen.
 */
export const ACTIVITY_SOURCES = ['session', 'app-server', 'events', 'rollout', 'hooks', 'screen'] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];

export const GATE_KINDS = ['checkpoint', 'escalation', 'context', 'approval'] as const;
export type GateKind = (typeof GATE_KINDS)[number];

export const REVIEW_VERDICTS = ['passed', 'failed', 'pending'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

export const HOST_STATES = ['ok', 'connecting', 'unreachable'] as const;
export type HostStateName = (typeof HOST_STATES)[number];
