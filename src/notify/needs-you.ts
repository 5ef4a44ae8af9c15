/**
 * When a run needs a human, counted one way for the header, the terminal title and notifications:
 * a pending gate of any kind, a blocked run, or a member waiting for a human (a lead that stopped
 * at its prompt, or anyone at a question or permission prompt; teammates idling between messages don't count).
 */
import type { Member, Run, Snapshot } from '../model.js';

/** Whether this member waits for a human. */
export function memberWaitsForHuman(m: Pick<Member, 'activity' | 'activityCue' | 'lead' | 'state'>): boolean {
  return m.state === 'alive' && m.activity === 'waiting' && (m.lead || m.activityCue === 'question');
}

/** Whether a run needs a human now. */
export function runNeedsYou(run: Run): boolean {
  return run.status === 'blocked' || run.gates.some((g) => g.state === 'pending') || run.members.some(memberWaitsForHuman);
}

/** How many runs need a human. */
export function needYouCount(snapshot: Snapshot): number {
  return snapshot.runs.filter(runNeedsYou).length;
}
