/**
 * The zod schemas of the snapshot (the `tower status --json` contract, version 1): what checks a
 * snapshot read back, and where the types of model.ts come from. Loaded only where something is validated.
 */
import { z } from 'zod';
import {
  SYSTEMS,
  RUN_STATUSES,
  MEMBER_STATES,
  ACTIVITIES,
  GATE_KINDS,
  REVIEW_VERDICTS,
  HOST_STATES,
  AGENTS,
  ACTIVITY_SOURCES,
} from './values.js';

/** A file that could not be read or makes no sense, and why. `file` is null for run-level findings. */
/** The most held requests one member carries (a box sending more is refused at the door). */
export const MAX_HELD = 50;

export const ProblemSchema = z.object({
  file: z.string().nullable(),
  message: z.string(),
});

export const PhaseSchema = z.object({
  /** The current phase, as the system names it ("2", "IMPLEMENTATION", "03-implement"). */
  current: z.string(),
  /** How many phases there are, when the system says. */
  total: z.number().nullable(),
  /** The system's own status word for the phase ("executing", "blocked", "in_progress"). */
  status: z.string(),
});

export const MemberSchema = z.object({
  name: z.string(),
  /** agentType or the role a handoff gives ("tina:implementer"). */
  role: z.string(),
  model: z.string(),
  /** tmux pane id ("%3"), or null when the member has no pane of its own. */
  paneId: z.string().nullable(),
  state: z.enum(MEMBER_STATES),
  lead: z.boolean(),
  /**
   * The tmux server holding the pane when it is not tower's own: the socket name of the Claude Code
   * server the lead made for its teammates (`claude-swarm-<leadPid>`). Null or absent: tower's own
   * server (-L/-S, else the default one). Extra to the v1 contract.
   */
  tmuxServer: z.string().nullable().optional(),
  /**
   * Why the pane's server could not be told (its `%N` is on several servers): actions on it are refused.
   * Extra to the v1 contract.
   */
  tmuxServerUnknown: z.string().optional(),
  /** Why its `%N` is not this member's pane (state `not-its-pane`). Extra to the v1 contract. */
  notItsPane: z.string().optional(),
  /**
   * What the team file claims of the member, the evidence its pane is checked against: when it joined
   * (epoch ms), where it works, and for a lead the process Claude Code recorded (its pid and its start
   * in clock ticks since boot, field 22 of /proc/<pid>/stat). Extra to the v1 contract.
   */
  joinedAt: z.number().optional(),
  cwd: z.string().optional(),
  leadProcess: z.object({ pid: z.number(), procStart: z.number(), pidSpace: z.string().nullable() }).optional(),
  /**
   * The pane as tower saw it when the snapshot was made: its first process and that process's start
   * (clock ticks, null when /proc does not say). An action checks the pane again against this right
   * before it acts. Extra to the v1 contract.
   */
  paneProcess: z.object({ pid: z.number(), start: z.number().nullable() }).optional(),
  /**
   * The Claude Code session a team's lead runs as (the team file's `leadSessionId`): its hook events
   * carry it as `session_id`, which places a lead the team file gives no pane. Extra to the v1 contract.
   */
  sessionId: z.string().optional(),
  /** The team this member belongs to (a tina run merges several teams). Extra to the v1 contract. */
  team: z.string().optional(),
  /** What the pane shows it doing; set from pane captures (unknown before the first one). */
  activity: z.enum(ACTIVITIES).optional(),
  /** Since when (ISO) it has been doing that, as far as tower saw. Extra to the v1 contract. */
  activitySince: z.string().nullable().optional(),
  /**
   * What the activity was read from: `question`, `prompt`, `interrupt-hint`, `output-moving`, `shell`,
   * `silent`. Extra to the v1 contract.
   */
  activityCue: z.string().optional(),
  /** Where the activity came from: the CLI's own source (session file, app server, rollout), hooks, or the screen. */
  activitySource: z.enum(ACTIVITY_SOURCES).nullable().optional(),
  /**
   * The agent CLI the member runs (`claude-code`, `codex`, …; `unknown` for a CLI tower does not
   * know). Absent: not told (a tower older than this field). Extra to the v1 contract.
   */
  agent: z.enum(AGENTS).optional(),
  /**
   * The permission prompt or question its pane shows: what is asked about (the tool, the command),
   * the question, the options as numbered on screen, and a signature telling it from another prompt.
   * Extra to the v1 contract.
   */
  prompt: z
    .object({
      question: z.string(),
      subject: z.array(z.string()),
      options: z.array(z.object({ key: z.string(), label: z.string() })),
      signature: z.string(),
      /**
       * The member whose pane draws it, when that is another one: a teammate's request shows in its
       * lead's pane (`Bash command · from the worker agent`), where answering it types.
       */
      drawnIn: z.string().optional(),
      /** When tower first saw this dialog (ISO): Claude Code ignores keys typed into a dialog just drawn. */
      since: z.string().optional(),
      /** Why its top is out of sight (`↑ 34 more lines`), when it is: the subject then starts with a cut mark. */
      cut: z.string().optional(),
      /**
       * The request as the agent CLI's own server gave it, where the prompt comes from there (never
       * from a screen): the server's id for it, the tool, and its input whole as one line of JSON.
       */
      request: z.object({ id: z.string(), tool: z.string(), whole: z.string() }).optional(),
    })
    .optional(),
  /**
   * The permission requests tower's hook holds open for its pane, oldest first, each answered by
   * itself (`tower answer --request ID`): its id (`<epoch>-<pid>`), the sha256 of its tool and input
   * (an answer is bound to both), the tool, the line its dialog shows, whether that line leaves
   * anything out, the whole input (every field), why it cannot be shown whole, and until when it is
   * held. Extra to the v1 contract.
   */
  held: z
    .array(
      z.object({
        id: z.string().regex(/^\d{1,12}-\d{1,10}$/),
        hash: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .nullable(),
        tool: z.string().nullable(),
        subject: z.string().nullable(),
        cut: z.boolean(),
        whole: z.string().nullable(),
        unreadable: z.string().nullable(),
        until: z.string(),
      }),
    )
    .max(MAX_HELD)
    .optional(),
  /** How full its context is, from its Claude Code transcript (the lead of a Claude team). */
  context: z.object({ usedPct: z.number(), tokens: z.number(), window: z.number() }).nullable().optional(),
  /** Tokens its transcript shows used, added up over what tower read of it. */
  tokens: z
    .object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() })
    .nullable()
    .optional(),
});

export const TaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.string(),
  owner: z.string().nullable(),
  blockedBy: z.array(z.string()),
  /** The team (or source) the task came from. Extra to the v1 contract. */
  team: z.string().optional(),
});

export const ReviewSchema = z.object({
  taskId: z.string(),
  /** What was reviewed: "spec-review", "code-quality", "phase-review". */
  kind: z.string(),
  verdict: z.enum(REVIEW_VERDICTS),
  reviewer: z.string().nullable(),
});

export const GateSchema = z.object({
  /**
   * Gate id, as `tower grant <run> <gate>` takes it: harness checkpoint name, `hitl`, dotagent phase,
   * `context`, `blocked`.
   */
  id: z.string(),
  kind: z.enum(GATE_KINDS),
  state: z.enum(['pending', 'granted']),
  /** When the gate started waiting (ISO), when known. */
  since: z.string().nullable(),
  /** Whether `tower grant` can grant it (false for context and escalation gates). */
  grantable: z.boolean(),
  title: z.string(),
  /** The file that holds the gate, absolute. */
  file: z.string().nullable(),
  /** The gate's body text, sanitized (the checkpoint's Markdown, the blocked reason). Extra to the v1 contract. */
  body: z.string().optional(),
});

export const ContextSchema = z.object({
  usedPct: z.number(),
  threshold: z.number().nullable(),
});

export const HandoffSchema = z.object({
  path: z.string(),
  writtenAt: z.string(),
  /** Older than one hour (tina's rule): still usable, but warn. */
  stale: z.boolean(),
});

export const RunSchema = z.object({
  /** `<system>:<name>`, suffixed `#2`, `#3` when two roots hold the same name. */
  id: z.string(),
  system: z.enum(SYSTEMS),
  name: z.string(),
  /** The project root the run was found in (absolute), or null (a Claude team on its own). */
  root: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  phase: PhaseSchema.nullable(),
  members: z.array(MemberSchema),
  tasks: z.array(TaskSchema),
  reviews: z.array(ReviewSchema),
  gates: z.array(GateSchema),
  context: ContextSchema.nullable(),
  handoff: HandoffSchema.nullable(),
  problems: z.array(ProblemSchema),
  /** The state directory the run's files live in (absolute), or null. Extra to the v1 contract. */
  stateDir: z.string().nullable().optional(),
  /** Warnings worth a glance (stale handoff, stuck heartbeat, context over threshold). Extra to the v1 contract. */
  warnings: z.array(z.string()).optional(),
  /** The build box the run lives on (a configured host's name); null or absent: this box. */
  host: z.string().nullable().optional(),
  /** True when the run is the last known state of a host that is unreachable now. */
  stale: z.boolean().optional(),
  /**
   * True for a Claude team that has ended: its files unchanged for ENDED_AFTER_MS and no member's
   * pane alive. Still listed; the screen folds these away. Extra to the v1 contract.
   */
  ended: z.boolean().optional(),
});

/** How a configured host is doing: connected, still connecting, or unreachable since a time and why. */
export const HostStateSchema = z.object({
  name: z.string(),
  state: z.enum(HOST_STATES),
  /** ISO time the host entered this state. */
  since: z.string().nullable(),
  /** What went wrong, in words (the ssh error); null when ok. */
  error: z.string().nullable(),
  /**
   * Whose rules answer the box's held requests once it said so: `yours` (this tower's rules,
   * sent there) or `box` (its own); `problem` says why they answer nothing, or why yours do not apply.
   */
  rules: z.object({ whose: z.enum(['yours', 'box']), problem: z.string().nullable() }).optional(),
});

export const SnapshotSchema = z.object({
  version: z.literal(1),
  generatedAt: z.string(),
  runs: z.array(RunSchema),
  problems: z.array(ProblemSchema),
  /** Present when hosts are configured: every host and its state. */
  hosts: z.array(HostStateSchema).optional(),
});
