/**
 * The zod schemas of what a box's `tower serve` sends: every message is checked against these at
 * the door (door.ts) before anything else sees it. A box may run an older, newer or tampered tower,
 * so unknown keys are dropped, and a snapshot's runs and problems are checked one by one (one bad
 * run is a problem, the others carry on).
 */
import { ANSWER_KEYS } from '../agents/registry.js';
import { z } from 'zod';
import { ACTION_KINDS } from '../kit/types.js';
import { GateSchema, RunSchema } from '../model/schema.js';
import { SYSTEMS } from '../model/values.js';
import { MAX_DECISION_SUBJECT, MAX_PANE_LINES } from './protocol.js';

/** A tmux socket flag pair the far side reads with: none, `-L name` or `-S path` (used to attach there). */
const TmuxFlagsSchema = z.union([
  z.tuple([]),
  z.tuple([z.literal('-L'), z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/)]),
  z.tuple([z.literal('-S'), z.string().regex(/^\/[A-Za-z0-9_./-]{1,1000}$/)]),
]);

export const HelloSchema = z.object({
  type: z.literal('hello'),
  protocol: z.number(),
  tower: z.string(),
  hostname: z.string(),
  tmux: TmuxFlagsSchema,
  // Names this tower does not know are kept out by the link, which uses only the ones it knows.
  features: z.array(z.string().max(64)).max(32).optional(),
});

/** A box saying whose rules answer there. */
export const RulesStateSchema = z.object({
  type: z.literal('rules'),
  whose: z.enum(['yours', 'box']),
  count: z.number().int().min(0).max(100_000),
  problem: z.string().max(4096).nullable(),
});

/**
 * A decision by rule on a box. An answer carries its outcome, a dry run none: a message that mixes
 * them is not read (it would be counted as what it is not).
 */
export const RuleDecisionSchema = z
  .object({
    type: z.literal('rule-decision'),
    id: z.string().min(1).max(300),
    time: z.string().datetime(),
    said: z.enum(['allowed', 'denied', 'would allow', 'would deny']),
    rule: z.string().min(1).max(80),
    why: z.string().max(1000),
    request: z.string().max(200),
    subject: z.string().max(MAX_DECISION_SUBJECT),
    run: z.string().min(1).max(1000),
    member: z.string().min(1).max(200),
    tool: z.string().max(200),
    outcome: z.enum(['done', 'refused', 'failed', 'cancelled', 'timeout']).nullable(),
  })
  .refine((d) => (d.outcome === null) === d.said.startsWith('would '), {
    message: 'an answer by rule has an outcome, a dry run none',
    path: ['outcome'],
  });

const ActionRequestSchema = z.object({
  kind: z.enum(ACTION_KINDS),
  run: z.string(),
  gate: z.string().optional(),
  name: z.string().optional(),
  message: z.string().optional(),
  members: z.array(z.string()).optional(),
  timeoutSec: z.number().optional(),
  // An answer is one some agent module takes (Codex's `p`, `esc` among them), nothing longer.
  choice: z
    .string()
    .refine((c) => ANSWER_KEYS.has(c.trim().toLowerCase()), {
      message: 'an answer no agent CLI this tower knows takes',
    })
    .optional(),
  text: z.string().optional(),
  expect: z.string().optional(),
  /** A held permission request an answer is bound to: `<epoch>-<pid>:<sha256>`. */
  request: z
    .string()
    .regex(/^\d{1,12}-\d{1,10}(:[0-9a-f]{8,64})?$/)
    .optional(),
});

/** The most lines of what a plan approves or an outcome approved (a held request's input is at most 64 KB). */
const MAX_APPROVED_LINES = 5000;

/** Only a grant's detail is read here (`tower grant --json` names the file); a box's plan is never executed here. */
const GrantDetailSchema = z.object({
  kind: z.literal('grant'),
  via: z.enum(SYSTEMS),
  gate: GateSchema,
  stateDir: z.string(),
  file: z.string(),
  pendingFile: z.string().nullable(),
  lockFile: z.string().nullable(),
  raisedBy: z.array(z.string()),
});

const ActionPlanSchema = z.object({
  request: ActionRequestSchema,
  run: RunSchema.nullable(),
  title: z.string(),
  effects: z.array(
    z.object({
      kind: z.enum(['tmux', 'write', 'create', 'append', 'delete', 'signal', 'run', 'wait', 'http']),
      text: z.string(),
    }),
  ),
  refusal: z.string().nullable(),
  destructive: z.boolean(),
  target: z.string().nullable().optional(),
  approves: z.array(z.string()).max(MAX_APPROVED_LINES).optional(),
  // Any other detail is dropped, not refused: a newer tower may describe more.
  detail: z
    .unknown()
    .transform((d) => GrantDetailSchema.safeParse(d).data ?? undefined)
    .optional(),
});

const RequestId = z.number().int().nonnegative();

export const PlanMessageSchema = z.object({ type: z.literal('plan'), id: RequestId, plan: ActionPlanSchema });
export const ProgressMessageSchema = z.object({
  type: z.literal('progress'),
  id: RequestId,
  progress: z.object({
    message: z.string(),
    elapsedMs: z.number().optional(),
    timeoutMs: z.number().optional(),
    waitingFor: z.string().optional(),
  }),
});
/** At most this many names in one straggler offer (a team is a handful of members). */
export const MAX_OFFERED = 200;
export const OfferMessageSchema = z.object({
  type: z.literal('offer'),
  id: RequestId,
  alive: z.array(z.string()).max(MAX_OFFERED),
});
export const OutcomeMessageSchema = z.object({
  type: z.literal('outcome'),
  id: RequestId,
  outcome: z.object({
    status: z.enum(['done', 'refused', 'failed', 'cancelled', 'timeout']),
    message: z.string(),
    details: z.array(z.string()).optional(),
    approved: z.array(z.string()).max(MAX_APPROVED_LINES).optional(),
  }),
});
export const ErrorMessageSchema = z.object({ type: z.literal('error'), id: RequestId.nullable(), message: z.string() });

/** The envelope of a snapshot or changes; their runs and problems are checked one by one. */
export const SnapshotEnvelopeSchema = z.object({
  type: z.literal('snapshot'),
  snapshot: z.object({ generatedAt: z.string(), runs: z.unknown(), problems: z.unknown() }),
});
export const ChangesEnvelopeSchema = z.object({
  type: z.literal('changes'),
  generatedAt: z.string(),
  upsert: z.unknown(),
  remove: z.array(z.string()),
  order: z.array(z.string()).optional(),
  problems: z.unknown().optional(),
});

export { RunSchema };
export { ProblemSchema } from '../model/schema.js';

export { MAX_PANE_LINES, MAX_PANE_LINE_CHARS } from './protocol.js';

export const PaneMessageSchema = z.object({
  type: z.literal('pane'),
  pane: z.string().regex(/^%\d{1,9}$/),
  server: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/)
    .nullable(),
  drop: z.number().int().min(0).max(MAX_PANE_LINES),
  keep: z.number().int().min(0).max(MAX_PANE_LINES),
  lines: z.array(z.string()).max(MAX_PANE_LINES),
  trimmed: z.number().int().min(0).optional(),
});
