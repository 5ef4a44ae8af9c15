/**
 * A served box's decisions by rule, told to the other side: each one once its `use` names the
 * feature, and the last few made before it did (the rules may act before the `use` arrives). The
 * id names the request and what was said of it, so a serve started again after the link came back
 * that decides a request still held (a dry run asks as before) tells the same id, shown once there.
 */
import type { RuleRecord } from '../actions/rule-answer.js';
import { MAX_DECISION_SUBJECT, RULE_DECISIONS } from './protocol.js';
import type { RuleDecision } from './protocol.js';

/** Decisions kept for a side that has not said yet whether it wants them. */
const BACKLOG = 50;

/** A rule's record as the protocol tells it. */
export function decisionOf(r: RuleRecord): RuleDecision {
  return {
    type: 'rule-decision',
    id: `${r.request} ${r.said} ${r.outcome ?? 'dry run'}`,
    time: r.time,
    said: r.said,
    rule: r.rule,
    why: r.why.slice(0, 1000),
    request: r.request,
    subject: r.subject.slice(0, MAX_DECISION_SUBJECT),
    run: r.run,
    member: r.member,
    tool: r.tool,
    outcome: r.outcome,
  };
}

/** Tells the other side each decision by rule, once it asked. */
export class ServeDecisions {
  private backlog: RuleDecision[] = [];
  private telling = false;

  constructor(private readonly send: (msg: RuleDecision) => void) {}

  /** The other side's `use`: naming the feature, the decisions so far go, then each as it is made. */
  used(features: readonly string[]): void {
    if (this.telling || !features.includes(RULE_DECISIONS)) return;
    this.telling = true;
    for (const d of this.backlog.splice(0)) this.send(d);
  }

  /** A decision the rules made here. */
  record(r: RuleRecord): void {
    const d = decisionOf(r);
    if (this.telling) return this.send(d);
    this.backlog.push(d);
    if (this.backlog.length > BACKLOG) this.backlog.shift();
  }
}
