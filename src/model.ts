/**
 * The normalized snapshot: every run on the machine, whatever system wrote it.
 * This is the contract of `tower status --json` (version 1); the UI and the actions read only this.
 */
import { z } from 'zod';

export const SYSTEMS = ['tina', 'claude-team', 'harness', 'sage', 'dotagent'] as const;
export type System = (typeof SYSTEMS)[number];

export const RUN_STATUSES = ['running', 'waiting', 'blocked', 'complete', 'idle', 'unknown'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const MEMBER_STATES = ['alive', 'dead', 'in-process', 'unknown'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];

/** What a member's pane shows it doing (see the README for how it is read). */
export const ACTIVITIES = ['working', 'waiting', 'idle', 'unknown'] as const;
export type Activity = (typeof ACTIVITIES)[number];

export const GATE_KINDS = ['checkpoint', 'escalation', 'context', 'approval'] as const;
export type GateKind = (typeof GATE_KINDS)[number];

/** A file that could not be read or makes no sense, and why. `file` is null for run-level findings. */
export const ProblemSchema = z.object({
  file: z.string().nullable(),
  message: z.string(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export const PhaseSchema = z.object({
  /** The current phase, as the system names it ("2", "IMPLEMENTATION", "03-implement"). */
  current: z.string(),
  /** How many phases there are, when the system says. */
  total: z.number().nullable(),
  /** The system's own status word for the phase ("executing", "blocked", "in_progress"). */
  status: z.string(),
});
export type Phase = z.infer<typeof PhaseSchema>;

export const MemberSchema = z.object({
  name: z.string(),
  /** agentType or the role a handoff gives ("tina:implementer"). */
  role: z.string(),
  model: z.string(),
  /** tmux pane id ("%3"), or null when the member has no pane of its own. */
  paneId: z.string().nullable(),
  state: z.enum(MEMBER_STATES),
  lead: z.boolean(),
  /** The team this member belongs to (a tina run merges several teams). Extra to the v1 contract. */
  team: z.string().optional(),
  /** What the pane shows it doing; set from pane captures (unknown before the first one). */
  activity: z.enum(ACTIVITIES).optional(),
  /** Since when (ISO) it has been doing that, as far as tower saw. Extra to the v1 contract. */
  activitySince: z.string().nullable().optional(),
  /** What the activity was read from: `question`, `prompt`, `interrupt-hint`, `output-moving`, `shell`, `silent`. Extra to the v1 contract. */
  activityCue: z.string().optional(),
});
export type Member = z.infer<typeof MemberSchema>;

export const TaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.string(),
  owner: z.string().nullable(),
  blockedBy: z.array(z.string()),
  /** The team (or source) the task came from. Extra to the v1 contract. */
  team: z.string().optional(),
});
export type Task = z.infer<typeof TaskSchema>;

export const REVIEW_VERDICTS = ['passed', 'failed', 'pending'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

export const ReviewSchema = z.object({
  taskId: z.string(),
  /** What was reviewed: "spec-review", "code-quality", "phase-review". */
  kind: z.string(),
  verdict: z.enum(REVIEW_VERDICTS),
  reviewer: z.string().nullable(),
});
export type Review = z.infer<typeof ReviewSchema>;

export const GateSchema = z.object({
  /** Gate id, as `tower grant <run> <gate>` takes it: harness checkpoint name, `hitl`, dotagent phase, `context`, `blocked`. */
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
export type Gate = z.infer<typeof GateSchema>;

export const ContextSchema = z.object({
  usedPct: z.number(),
  threshold: z.number().nullable(),
});
export type Context = z.infer<typeof ContextSchema>;

export const HandoffSchema = z.object({
  path: z.string(),
  writtenAt: z.string(),
  /** Older than one hour (tina's rule): still usable, but warn. */
  stale: z.boolean(),
});
export type Handoff = z.infer<typeof HandoffSchema>;

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
});
export type Run = z.infer<typeof RunSchema>;

export const HOST_STATES = ['ok', 'connecting', 'unreachable'] as const;
export type HostStateName = (typeof HOST_STATES)[number];

/** How a configured host is doing: connected, still connecting, or unreachable since a time and why. */
export const HostStateSchema = z.object({
  name: z.string(),
  state: z.enum(HOST_STATES),
  /** ISO time the host entered this state. */
  since: z.string().nullable(),
  /** What went wrong, in words (the ssh error); null when ok. */
  error: z.string().nullable(),
});
export type HostState = z.infer<typeof HostStateSchema>;

export const SnapshotSchema = z.object({
  version: z.literal(1),
  generatedAt: z.string(),
  runs: z.array(RunSchema),
  problems: z.array(ProblemSchema),
  /** Present when hosts are configured: every host and its state. */
  hosts: z.array(HostStateSchema).optional(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** An empty run with every list empty; sources fill in what their files hold. */
export function emptyRun(system: System, name: string, root: string | null, stateDir: string | null): Run {
  return {
    id: `${system}:${name}`,
    system,
    name,
    root,
    status: 'unknown',
    phase: null,
    members: [],
    tasks: [],
    reviews: [],
    gates: [],
    context: null,
    handoff: null,
    problems: [],
    stateDir,
    warnings: [],
    host: null,
  };
}

/** Pending gates of a kind, the counts the runs list shows. */
export function pendingGates(run: Run, kinds: readonly GateKind[]): Gate[] {
  return run.gates.filter((g) => g.state === 'pending' && kinds.includes(g.kind));
}
