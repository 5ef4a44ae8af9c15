/** The order that puts what needs a human first (ids are given in store/assemble.ts). */
import type { Run, RunStatus } from '../model/model.js';
import { pendingGates } from '../model/model.js';

const STATUS_RANK: Record<RunStatus, number> = {
  blocked: 2,
  running: 3,
  waiting: 4,
  idle: 5,
  unknown: 6,
  complete: 7,
};

/** Teams that ended come after everything else, whatever their files last said. */
const ENDED_RANK = 8;

/**
 * How urgently a run needs a human (lower first): a pending escalation, then a pending
 * checkpoint/context/approval gate, then by status: blocked, running, waiting, idle, unknown, complete;
 * teams that ended last of all.
 */
export function urgency(run: Run): number {
  if (run.ended) return ENDED_RANK;
  if (run.gates.length === 0) return STATUS_RANK[run.status];
  if (pendingGates(run, ['escalation']).length > 0) return 0;
  if (pendingGates(run, ['checkpoint', 'context', 'approval']).length > 0) return 1;
  return STATUS_RANK[run.status];
}

/** The snapshot's order of two ranked runs (rank from `urgency`): by rank, ties by id. */
export function compareRanked(a: { rank: number; id: string }, b: { rank: number; id: string }): number {
  return a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
