/**
 * Rules answering this box's held requests while the control room runs, and what other boxes'
 * rules decide there: each decision an activity row (this box's: the answer action's own; another
 * box's: one naming the box), all of them counted together in the header, and a denial shown on
 * its member. Loaded after the first frame (it brings zod).
 */
import type { ActionEnv } from '../kit/types.js';
import type { SnapshotStore } from '../store/types.js';
import type { RuleTally } from '../actions/rule-answer.js';
import type * as BoxRuleRows from '../remote/box-rule-rows.js';
import type { SessionStore } from './session-state.js';

/** What the other boxes' module gives (loaded only when there are hosts). */
type Boxes = typeof BoxRuleRows;

/** Members shown with a denial, at most (a member shows one ten minutes at most anyway). */
const MAX_DENIED = 500;

/** Follows the rules of this box and the decisions of `boxes`' hosts; `stop` ends both. */
export async function startRules(
  env: ActionEnv,
  store: SnapshotStore,
  session: SessionStore,
  boxes: Boxes | null,
): Promise<{ stop(): Promise<void> }> {
  const { followRules, tallyWords } = await import('../actions/rule-follow.js');
  const onBoxes: RuleTally = { allowed: 0, denied: 0, wouldAllow: 0, wouldDeny: 0 };
  const deny = (key: string, rule: string, at = Date.now()) => {
    const denied = new Map(session.getSnapshot().deniedByRule);
    denied.delete(key);
    denied.set(key, { rule, at });
    if (denied.size > MAX_DENIED) denied.delete(denied.keys().next().value!);
    session.set({ deniedByRule: denied });
  };
  const show = () => {
    const here = followed.answerer.tally;
    const all: RuleTally = {
      allowed: here.allowed + onBoxes.allowed,
      denied: here.denied + onBoxes.denied,
      wouldAllow: here.wouldAllow + onBoxes.wouldAllow,
      wouldDeny: here.wouldDeny + onBoxes.wouldDeny,
    };
    session.set({ byRule: tallyWords(all) ?? '' });
  };
  const followed = followRules(
    env,
    store,
    (r) => {
      if (r.said === 'denied' && r.outcome === 'done') deny(`${r.run}/${r.member}`, r.rule);
      show();
    },
    {
      onProblem: (problem) =>
        problem &&
        env.activity?.push({ action: 'rules', runId: null, target: null, status: 'refused', message: problem }),
    },
  );
  const unfollow =
    boxes?.followBoxDecisions(store, (d) => {
      env.activity?.push(boxes.decisionRow(d));
      boxes.countDecision(onBoxes, d);
      // When by the box's clock, as its member's activity is dated (never later than now here).
      const at = Math.min(Date.parse(d.time), Date.now());
      if (d.said === 'denied' && d.outcome === 'done') deny(`${d.runId}/${d.member}`, d.rule, at);
      show();
    }) ?? (() => {});
  return {
    stop: async () => {
      unfollow();
      await followed.stop();
    },
  };
}
