/**
 * Other boxes' decisions by rule on this screen: each one an activity row that names its box and
 * whose rules made it, and counted with this box's in the header. The box made and audited the
 * decision; this side only shows what the box told (checked at the door), each decision once.
 */
import type { ActivityEntry } from '../kit/activity.js';
import type { RuleTally } from '../actions/rule-answer.js';
import type { SnapshotStore } from '../store/types.js';
import { CompositeStore } from './composite-store.js';
import { hostRunId } from './host-runs.js';
import type { RuleDecision } from './protocol.js';

/** A box's decision as this tower shows it: the box, the run's id here, whose rules made it. */
export interface HostRuleDecision extends RuleDecision {
  host: string;
  /** The run's id on this screen (`<host>/<id>`). */
  runId: string;
  /** Whose rules answer on the box, as it last said (null: not said yet). */
  whose: 'yours' | 'box' | null;
}

/** Calls `listener` with each decision by rule every host of `store` tells (none for this box alone). */
export function followBoxDecisions(store: SnapshotStore, listener: (d: HostRuleDecision) => void): () => void {
  if (!(store instanceof CompositeStore)) return () => {};
  const offs = store.links.map((l) =>
    l.decisions.subscribe((d) =>
      listener({ ...d, host: l.host.name, runId: hostRunId(l.host.name, d.run), whose: l.rules?.whose ?? null }),
    ),
  );
  return () => offs.forEach((off) => off());
}

/** The activity row of a box's decision: `on build-1: allowed lead's Bash: npm test, by tests (your rules)`. */
export function decisionRow(d: HostRuleDecision): Omit<ActivityEntry, 'id'> {
  const whose = d.whose === 'yours' ? ' (your rules)' : d.whose === 'box' ? " (the box's rules)" : '';
  const what = `${d.said} ${d.member}'s ${d.tool}${d.subject ? `: ${d.subject}` : ''}, by ${d.rule}${whose}`;
  const dry = d.outcome === null ? ` (dry run: ${d.why}); asked as before` : '';
  const failed = d.outcome !== null && d.outcome !== 'done' ? `; the answer ${d.outcome}` : '';
  return {
    time: d.time,
    action: 'rule',
    runId: d.runId,
    target: null,
    status: d.outcome ?? 'done',
    message: `on ${d.host}: ${what}${dry}${failed}`,
  };
}

/** Counts a box's decision as this box's are counted: an answer once it was taken, a dry run always. */
export function countDecision(t: RuleTally, d: RuleDecision): void {
  if (d.said === 'would allow') t.wouldAllow++;
  else if (d.said === 'would deny') t.wouldDeny++;
  else if (d.outcome === 'done') {
    if (d.said === 'allowed') t.allowed++;
    else t.denied++;
  }
}
