/**
 * The door every message from another box comes through. A box may run an older, newer or tampered
 * tower: each line is parsed, checked against the protocol's schema and its text made safe by the
 * same rule as local files, before anything else sees it. What fails becomes a problem in words
 * (shown on that host's row); a snapshot or a change with one bad run keeps the others.
 */
import type { z } from 'zod';
import type { Member, Problem, Run } from '../model/model.js';
import { MemberSchema } from '../model/schema.js';
import { PROMPT_BOUNDS } from '../store/prompt-reading.js';
import { ANSWER_KEYS } from '../agents/registry.js';
import { sanitize, sanitizeLine } from '../text/sanitize.js';
import { sgrOnlyLine } from '../text/sgr-only.js';
import type { ServerMessage } from './protocol.js';
import {
  ChangesEnvelopeSchema,
  ErrorMessageSchema,
  HelloSchema,
  OfferMessageSchema,
  MAX_PANE_LINE_CHARS,
  OutcomeMessageSchema,
  PaneMessageSchema,
  PlanMessageSchema,
  ProblemSchema,
  ProgressMessageSchema,
  RuleDecisionSchema,
  RulesStateSchema,
  RunSchema,
  SnapshotEnvelopeSchema,
} from './protocol-schema.js';

/** A box of 10,000 teams sends about that many runs; more than this is not a box's snapshot. */
export const MAX_RUNS = 50_000;
const MAX_PROBLEMS = 10_000;
/** Longest text kept from a box: one line, and a gate's body (a checkpoint's Markdown). */
const MAX_LINE_CHARS = 4096;
const MAX_BODY_CHARS = 64 * 1024;
/** Only this much of a bad line or an id is quoted back in a problem. */
const QUOTE_CHARS = 60;

export type Admitted = { message: ServerMessage; problems: string[] } | { message: null; problems: string[] };

/** Text from a box made safe to print and bounded: `body` keeps its lines, everything else is one line. */
function clean(value: unknown, key: string | null): unknown {
  if (typeof value === 'string') {
    // A gate's body and a held request's whole input keep their lines.
    if (key === 'body' || key === 'whole') return sanitize(value.slice(0, MAX_BODY_CHARS));
    // A prompt's signature is sent back as it came when it is answered: cut short, it would never match.
    return sanitizeLine(value.slice(0, key === 'signature' ? MAX_BODY_CHARS : MAX_LINE_CHARS));
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], key);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of Object.keys(obj)) obj[k] = clean(obj[k], k);
    return obj;
  }
  return value;
}

/** Numbers a box could send that would make a gauge or a count absurd, held to what they can mean. */
function tidyRun(run: Run): Run {
  const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
  if (run.context)
    run.context = {
      usedPct: clamp(run.context.usedPct, 0, 1000),
      threshold: run.context.threshold === null ? null : clamp(run.context.threshold, 0, 100),
    };
  if (run.phase && run.phase.total !== null)
    run.phase = {
      ...run.phase,
      total:
        Number.isInteger(run.phase.total) && run.phase.total >= 0 && run.phase.total <= 100_000
          ? run.phase.total
          : null,
    };
  return run;
}

const NEWER_WORD = /^[a-z][a-z-]{0,31}$/;

/**
 * A member of a newer tower may carry a state, an activity, a source or an agent CLI this one does not know yet
 * (additions only: a box's tower can be newer): read as unknown, not as a run that cannot be read. An agent CLI
 * this tower does not know is also said, as a problem: its member is shown, but not read or answered as a CLI.
 */
function tolerateNewer(raw: unknown, problems: string[]): void {
  const members = raw !== null && typeof raw === 'object' ? (raw as { members?: unknown }).members : undefined;
  if (!Array.isArray(members)) return;
  const shape = MemberSchema.shape;
  // Only a plain word is a newer one: a known word with escapes in it stays a run that cannot be read.
  const newer = (v: unknown, schema: z.ZodType): boolean =>
    typeof v === 'string' && NEWER_WORD.test(v) && !schema.safeParse(v).success;
  for (const m of members) {
    if (m === null || typeof m !== 'object') continue;
    const o = m as Record<string, unknown>;
    if (newer(o.state, shape.state)) o.state = 'unknown';
    if (newer(o.activity, shape.activity)) o.activity = 'unknown';
    if (newer(o.activitySource, shape.activitySource)) o.activitySource = null;
    if (newer(o.agent, shape.agent)) {
      const run = (raw as { id?: unknown }).id;
      problems.push(
        `runs ${quote(o.name)} of ${quote(run)} in an agent CLI this tower does not know (${quote(o.agent)}); ` +
          'it shows as an unknown CLI (is its tower newer?)',
      );
      o.agent = 'unknown';
    }
  }
}

/** Why a box's prompt is not shown, or null: larger than one read here, or an option keyed as no agent CLI answers. */
function promptProblem(run: Run, m: Member): string | null {
  const p = m.prompt;
  if (!p) return null;
  const who = `${quote(m.name)} of ${quote(run.id)}`;
  if (p.subject.length > PROMPT_BOUNDS.subject || p.options.length > PROMPT_BOUNDS.options)
    return (
      `sent a prompt for ${who} larger than a pane shows ` +
      `(${p.subject.length} subject lines, ${p.options.length} options); it is not shown`
    );
  const odd = p.options.find((o) => !ANSWER_KEYS.has(o.key));
  if (odd)
    return (
      `sent a prompt for ${who} with an option keyed ${quote(odd.key)}, which no agent CLI this tower ` +
      `knows takes (${[...ANSWER_KEYS].join(' ')}); it is not shown`
    );
  return null;
}

/**
 * A prompt holds no more than one read on this box can (its subject lines, its options, keys an
 * answer some agent module takes): a member whose prompt goes past that keeps its activity, not the
 * prompt, and it is said.
 */
function boundPrompts(run: Run, problems: string[]): void {
  let members: Member[] | null = null;
  run.members.forEach((m, i) => {
    const problem = promptProblem(run, m);
    if (problem === null) return;
    problems.push(problem);
    members ??= [...run.members];
    const { prompt: _tooLarge, ...rest } = m;
    members[i] = rest;
  });
  if (members) run.members = members;
}

const quote = (v: unknown): string => JSON.stringify(sanitizeLine(String(v)).slice(0, QUOTE_CHARS));

/** The first thing zod found wrong, as `path: message`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'does not match';
  return `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${sanitizeLine(issue.message)}`;
}

/** Checks a list of runs one by one: the good ones (each id once), and a problem per bad one. */
export function admitRuns(value: unknown, problems: string[]): Run[] {
  if (!Array.isArray(value)) {
    problems.push(`sent runs that are not a list (${value === null ? 'null' : typeof value}); none of them is shown`);
    return [];
  }
  if (value.length > MAX_RUNS) {
    problems.push(`sent ${value.length} runs, more than the ${MAX_RUNS} a box can hold; none of them is shown`);
    return [];
  }
  const runs: Run[] = [];
  const seen = new Set<string>();
  value.forEach((raw: unknown, i) => {
    tolerateNewer(raw, problems);
    const parsed = RunSchema.safeParse(raw);
    const id = raw !== null && typeof raw === 'object' && 'id' in raw ? ` ${quote((raw as { id: unknown }).id)}` : '';
    if (!parsed.success) {
      problems.push(
        `sent a run this tower cannot read (run ${i + 1}${id}): ${firstIssue(parsed.error)}; it is not shown`,
      );
      return;
    }
    const run = tidyRun(clean(parsed.data, null) as Run);
    boundPrompts(run, problems);
    if (seen.has(run.id)) {
      problems.push(`sent the run ${quote(run.id)} twice; the second is not shown`);
      return;
    }
    seen.add(run.id);
    runs.push(run);
  });
  return runs;
}

/** Checks a list of problems one by one (a bad one is said, not shown as sent). */
function admitProblems(value: unknown, problems: string[]): Problem[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_PROBLEMS) {
    problems.push('sent a problems list this tower cannot read');
    return [];
  }
  const out: Problem[] = [];
  for (const raw of value) {
    const parsed = ProblemSchema.safeParse(raw);
    if (parsed.success) out.push(clean(parsed.data, null) as Problem);
    else problems.push(`sent a problem this tower cannot read: ${firstIssue(parsed.error)}`);
  }
  return out;
}

const SIMPLE = {
  hello: HelloSchema,
  plan: PlanMessageSchema,
  progress: ProgressMessageSchema,
  offer: OfferMessageSchema,
  outcome: OutcomeMessageSchema,
  error: ErrorMessageSchema,
  rules: RulesStateSchema,
  'rule-decision': RuleDecisionSchema,
} as const;

/**
 * One line from a box: the message it holds, checked and cleaned, with what was wrong in it; or no
 * message and why. Never throws.
 */
export function admitLine(line: string): Admitted {
  const text = line.trim();
  if (text === '') return { message: null, problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { message: null, problems: [`sent a line that is not JSON: ${quote(text)}`] };
  }
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    typeof (value as { type?: unknown }).type !== 'string'
  ) {
    return { message: null, problems: [`sent a line that is not a message: ${quote(text)}`] };
  }
  const type = (value as { type: string }).type;
  const problems: string[] = [];
  if (type === 'snapshot') {
    const env = SnapshotEnvelopeSchema.safeParse(value);
    if (!env.success)
      return { message: null, problems: [`sent a snapshot this tower cannot read: ${firstIssue(env.error)}`] };
    const s = env.data.snapshot;
    const runs = admitRuns(s.runs, problems);
    const snapshot = {
      version: 1 as const,
      generatedAt: sanitizeLine(s.generatedAt.slice(0, 64)),
      runs,
      problems: admitProblems(s.problems, problems),
    };
    return { message: { type: 'snapshot', snapshot }, problems };
  }
  if (type === 'changes') {
    const env = ChangesEnvelopeSchema.safeParse(value);
    if (!env.success)
      return { message: null, problems: [`sent changes this tower cannot read: ${firstIssue(env.error)}`] };
    const c = env.data;
    if (c.remove.length > MAX_RUNS || (c.order?.length ?? 0) > MAX_RUNS)
      return { message: null, problems: [`sent changes naming more than ${MAX_RUNS} runs; they were dropped`] };
    const upsert = admitRuns(c.upsert, problems);
    // Ids are matched against the runs' ids, which are cleaned the same way.
    const ids = (list: string[]) => list.map((id) => sanitizeLine(id.slice(0, MAX_LINE_CHARS)));
    const message: ServerMessage = {
      type: 'changes',
      generatedAt: sanitizeLine(c.generatedAt.slice(0, 64)),
      upsert,
      remove: ids(c.remove),
    };
    if (c.order !== undefined) message.order = ids(c.order);
    if (c.problems !== undefined) message.problems = admitProblems(c.problems, problems);
    return { message, problems };
  }
  if (type === 'pane') {
    const parsed = PaneMessageSchema.safeParse(value);
    if (!parsed.success)
      return { message: null, problems: [`sent pane lines this tower cannot read: ${firstIssue(parsed.error)}`] };
    // Cleaned here as a capture of this box is: colour escapes kept for the screen to read, nothing else.
    const lines = parsed.data.lines.map((l) => sgrOnlyLine(l.slice(0, MAX_PANE_LINE_CHARS)));
    const { trimmed, ...rest } = parsed.data;
    return { message: { ...rest, lines, ...(trimmed ? { trimmed } : {}) }, problems };
  }
  const schema = (SIMPLE as Record<string, z.ZodType | undefined>)[type];
  if (!schema)
    return {
      message: null,
      problems: [`sent a message of a kind this tower does not know (${quote(type)}); is its tower newer?`],
    };
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    return { message: null, problems: [`sent a ${type} message this tower cannot read: ${firstIssue(parsed.error)}`] };
  const message = clean(parsed.data, null) as ServerMessage;
  if (message.type === 'plan' && message.plan.run) tidyRun(message.plan.run);
  return { message, problems };
}
