/**
 * "Needs you", as DESIGN.md defines it: a run needs the operator when it has a pending gate of any
 * kind (context signals and escalations included), is blocked, or has a member waiting for a human
 * (a lead that stopped at its prompt, or anyone at a question or permission prompt; teammates idling
 * between messages don't count). The header, the title, notifications and `status` all count with
 * these functions.
 */
import type { Member, Run, Snapshot } from '../model/model.js';
import { countOver } from './delta.js';

/** Whether this member waits for a human. */
export function memberWaitsForHuman(m: Pick<Member, 'activity' | 'activityCue' | 'lead' | 'state'>): boolean {
  return m.state === 'alive' && m.activity === 'waiting' && (m.lead || m.activityCue === 'question');
}

/** Whether this run needs the operator now. */
export function runNeedsYou(run: Run): boolean {
  return (
    run.status === 'blocked' || run.gates.some((g) => g.state === 'pending') || run.members.some(memberWaitsForHuman)
  );
}

const needsYou = new WeakMap<Run, boolean>();
const counts = new WeakMap<Snapshot, number>();

/**
 * How many runs of the snapshot need the operator: once per snapshot, each run's answer once per run
 * object (the header, the title and notifications all ask; on 10,000 teams asking afresh cost ~30 ms a change),
 * and from the snapshot before when the store says what changed (store/delta.ts).
 */
export function countNeedingYou(snapshot: Snapshot): number {
  return countOver(counts, snapshot, (run) => {
    let needs = needsYou.get(run);
    if (needs === undefined) {
      needs = runNeedsYou(run);
      needsYou.set(run, needs);
    }
    return needs ? 1 : 0;
  });
}

/** A member's activity as one word (what the preview title and the runs list say). */
export function activityWord(m: Pick<Member, 'activity' | 'activityCue'>): string {
  switch (m.activity) {
    case 'working':
      return 'working';
    case 'waiting':
      return m.activityCue === 'question' ? 'asks a question' : 'waiting for input';
    case 'idle':
      return m.activityCue === 'shell' ? 'idle (shell)' : 'idle';
    default:
      return 'unknown';
  }
}
