/**
 * "Needs you", as DESIGN.md defines it: a run needs the operator when it has a pending gate of any
 * kind (context signals and escalations included), is blocked, or has a member waiting. The header,
 * the title and `status` all count with this one function.
 */
import type { Run, Snapshot } from '../model.js';

/** Whether a member waits for the operator (activity "waiting"), where member activity is known. */
function memberWaiting(member: Run['members'][number]): boolean {
  return (member as { activity?: unknown }).activity === 'waiting';
}

/** Whether this run needs the operator now. */
export function runNeedsYou(run: Run): boolean {
  return run.status === 'blocked' || run.gates.some((g) => g.state === 'pending') || run.members.some(memberWaiting);
}

/** How many runs of the snapshot need the operator. */
export function countNeedingYou(snapshot: Snapshot): number {
  return snapshot.runs.filter(runNeedsYou).length;
}
