/**
 * The streaming protocol between a tower and `tower serve --stdio` on another box, one JSON object
 * per line over the ssh channel. The serving side says hello (with the protocol version), sends one
 * full snapshot, then only what changed; the other side sends requests (plan, run, cancel, refresh)
 * and gets answers tagged with the request's id.
 */
import type { ActionOutcome, ActionPlan, ActionProgress, ActionRequest } from '../kit/types.js';
import type { Problem, Run, Snapshot } from '../model/model.js';

/**
 * Bumped only when a message changes shape in a way the other side cannot skip over. Everything
 * since protocol 1 is an addition: a new message kind or field, offered in the hello's `features`
 * and used once the other side says so (or simply ignored by it); so towers of different versions
 * still talk (docs/remote.md).
 */
export const PROTOCOL_VERSION = 1;

/** The first line the serving side writes. */
export interface Hello {
  type: 'hello';
  protocol: number;
  /** The serving tower's version. */
  tower: string;
  /** The box's hostname, for the audit log. */
  hostname: string;
  /** The tmux socket flags that tower reads (`-L name`, `-S path`, or none), for attach. */
  tmux: string[];
  /** What this side can do beyond protocol 1, for the other side to turn on with `use` (none: an older tower). */
  features?: string[];
}

/**
 * A `changes` message names the whole run order only when it moved: most changes keep it, and on
 * 10,000 runs the order is ~234 KB sent with every change (seconds on a slow link). Offered in the
 * serving side's hello, used once the other side says so: an older tower on either side never sees
 * a message without `order`.
 */
export const ORDER_WHEN_MOVED = 'order-when-moved';

/**
 * The serving side runs the store the control room runs: its members carry their activity, prompt
 * and context. A box without it (an older tower) sends members with none; this side shows them as
 * unknown and says why once.
 */
export const ACTIVITY = 'activity';

/**
 * The serving side streams one pane while the other side previews it: asked with `preview` (one
 * pane per box at a time; `pane: null` stops), it captures that pane each time it prints (at the
 * local preview's rate) and sends `pane` messages with the lines that changed since the last one.
 */
export const PANE_PREVIEW = 'pane-preview';
/**
 * The serving side says whose rules answer its held requests, and takes the other side's: a `use`
 * naming it is followed by a `rules` message, the text of this tower's rules file (null: none) when
 * the host is set to `rules: "yours"`, or no text field for the box's own rules. Until that comes
 * no request is answered by rule there. A box without it (an older tower) answers by its own rules.
 */
export const RULES = 'rules';

/** Whose rules answer a box's held requests, as the box says it. */
export interface RulesState {
  type: 'rules';
  /** `yours`: the rules the operator's tower sent; `box`: the box's own rules file. */
  whose: 'yours' | 'box';
  /** How many rules answer there (0: none). */
  count: number;
  /** Why the rules answer nothing there (refused, not valid), or null. */
  problem: string | null;
}

/**
 * The serving side tells each decision its rules make (allowed, denied, or in dry run would have):
 * a `rule-decision` message per decision once the other side's `use` names it, the last ones made
 * before that too. Each has an id made of the request and what was said of it, the same from a
 * serve started again after the link came back: the other side shows each decision once. A box
 * without it (an older tower) sends none: its decisions stay in its own audit log.
 */
export const RULE_DECISIONS = 'rule-decisions';

/** Characters of a decision's request line sent (the box's audit log has its whole input). */
export const MAX_DECISION_SUBJECT = 500;

/** One decision by rule on a box, as the box tells it. */
export interface RuleDecision {
  type: 'rule-decision';
  /** The same for the same decision on the same request, whichever serve made it. */
  id: string;
  time: string;
  said: 'allowed' | 'denied' | 'would allow' | 'would deny';
  rule: string;
  why: string;
  /** The held request's id on the box. */
  request: string;
  /** The line the request's dialog shows (its command, its path), cut short. */
  subject: string;
  /** The run's id on the box. */
  run: string;
  member: string;
  tool: string;
  /** The answer's outcome; null in dry run, which answers nothing. */
  outcome: ActionOutcome['status'] | null;
}

/** Lines of a pane sent and kept, at most: the capture's history and a tall screen. */
export const MAX_PANE_LINES = 400;
/** Characters of one pane line sent and kept, colour escapes included. */
export const MAX_PANE_LINE_CHARS = 2048;
/**
 * Bytes of pane lines a box sends in one second, at most (a screen of 200 colourful lines at ten
 * captures a second, every line new each time, is ~400 KB/s; a scrolling agent sends a line or a
 * few per capture, ~2 KB/s). A box holds itself to it; this side cuts what comes past it.
 */
export const PREVIEW_BYTES_PER_SEC = 128 * 1024;

/**
 * One pane's lines as they are now, from the ones sent before: the old lines from `drop` on, `keep`
 * of them (what scrolled off the top is dropped), then `lines`. `drop` and `keep` 0: all lines new.
 * Each line is cleaned to its text and colour escapes (SGR) before it is sent, and again at the door.
 */
export interface PaneLines {
  type: 'pane';
  pane: string;
  /** The Claude Code swarm server the pane is on, null for the box's own tmux server. */
  server: string | null;
  drop: number;
  keep: number;
  lines: string[];
  /** Lines of the pane the box left out to stay within the cap on bytes per second (oldest first). */
  trimmed?: number;
}

/** Messages from the serving side. */
export type ServerMessage =
  | Hello
  | { type: 'snapshot'; snapshot: Snapshot }
  | { type: 'changes'; generatedAt: string; upsert: Run[]; remove: string[]; order?: string[]; problems?: Problem[] }
  | { type: 'plan'; id: number; plan: ActionPlan }
  | { type: 'progress'; id: number; progress: ActionProgress }
  | { type: 'offer'; id: number; alive: string[] }
  | { type: 'outcome'; id: number; outcome: ActionOutcome }
  | { type: 'error'; id: number | null; message: string }
  | PaneLines
  | RulesState
  | RuleDecision;

/** Messages to the serving side. */
export type ClientMessage =
  | { type: 'plan'; id: number; request: ActionRequest; dryRun?: boolean }
  | { type: 'run'; id: number; request: ActionRequest; dryRun?: boolean }
  | { type: 'cancel'; id: number }
  | { type: 'answer-offer'; id: number; names: string[] }
  | { type: 'refresh'; runId?: string }
  | { type: 'use'; features: string[] }
  /** Whose rules answer on the box: with `text` (null: none) the operator's, without it the box's own. */
  | { type: 'rules'; text?: string | null }
  | { type: 'preview'; pane: string | null; server?: string | null; run?: string };

/** One line of JSON (no newline can hide inside: JSON.stringify escapes them). */
export function encode(msg: ServerMessage | ClientMessage): string {
  return `${JSON.stringify(msg)}\n`;
}

/** Parses one line into an object with a string `type`, or null when it is not one. */
export function decodeLine(line: string): { type: string; [key: string]: unknown } | null {
  const t = line.trim();
  if (t === '' || t[0] !== '{') return null;
  try {
    const v: unknown = JSON.parse(t);
    if (v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string') return v as { type: string };
  } catch {
    return null;
  }
  return null;
}

/** The order of a change that did not name it: the runs kept, then the new ones as sent. */
function orderKept(prev: Snapshot, c: { upsert: readonly Run[]; remove: readonly string[] }): string[] {
  const gone = new Set(c.remove);
  const order = prev.runs.filter((r) => !gone.has(r.id)).map((r) => r.id);
  if (c.upsert.length === 0) return order;
  const known = new Set(order);
  for (const r of c.upsert) if (!known.has(r.id)) order.push(r.id);
  return order;
}

/** Whether `runs` name exactly `ids`, in that order. */
function sameOrder(runs: readonly Run[], ids: readonly string[]): boolean {
  return runs.length === ids.length && runs.every((r, i) => r.id === ids[i]);
}

/**
 * What changed between two snapshots, by run identity (the store keeps unchanged runs' objects).
 * With `orderWhenMoved` the order is left out while it is the same.
 */
export function diffSnapshots(
  prev: Snapshot,
  next: Snapshot,
  orderWhenMoved = false,
): Extract<ServerMessage, { type: 'changes' }> {
  const order = next.runs.map((r) => r.id);
  let upsert: Run[];
  let remove: string[];
  const kept = sameOrder(prev.runs, order);
  if (kept) {
    // Most changes keep the list as it was: compared in place, without a map of every run
    // (one change on 10,000 runs: 10 ms with the map, 1.3 ms without; test/bench/door.bench.ts).
    upsert = next.runs.filter((r, i) => prev.runs[i] !== r);
    remove = [];
  } else {
    const before = new Map(prev.runs.map((r) => [r.id, r]));
    upsert = next.runs.filter((r) => before.get(r.id) !== r);
    const ids = new Set(order);
    remove = prev.runs.filter((r) => !ids.has(r.id)).map((r) => r.id);
  }
  const problemsChanged = JSON.stringify(prev.problems) !== JSON.stringify(next.problems);
  return {
    type: 'changes',
    generatedAt: next.generatedAt,
    upsert,
    remove,
    ...(kept && orderWhenMoved ? {} : { order }),
    ...(problemsChanged ? { problems: next.problems } : {}),
  };
}

/** Applies changes to the last snapshot; runs not named keep their object. */
export function applyChanges(prev: Snapshot, c: Extract<ServerMessage, { type: 'changes' }>): Snapshot {
  // No order: the list as it was, less what was removed, runs it did not have yet at its end.
  const order = c.order ?? orderKept(prev, c);
  if (c.remove.length === 0 && sameOrder(prev.runs, order)) {
    // The list as it was (most changes): the few runs sent replace theirs in place
    // (one change on 10,000 runs: 7 ms through a map of every run, 0.2 ms this way).
    const upsert = new Map(c.upsert.map((r) => [r.id, r]));
    const runs = upsert.size === 0 ? prev.runs : prev.runs.map((r) => upsert.get(r.id) ?? r);
    return { version: 1, generatedAt: c.generatedAt, runs, problems: c.problems ?? prev.problems };
  }
  const byId = new Map(prev.runs.map((r) => [r.id, r]));
  for (const id of c.remove) byId.delete(id);
  for (const r of c.upsert) byId.set(r.id, r);
  // Each run once, whatever the order names twice.
  const runs = order.flatMap((id) => {
    const r = byId.get(id);
    byId.delete(id);
    return r ? [r] : [];
  });
  return { version: 1, generatedAt: c.generatedAt, runs, problems: c.problems ?? prev.problems };
}
