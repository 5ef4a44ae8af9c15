/** Run ids (`<system>:<name>`, `#2` on collisions) and the order that puts what needs a human first. */
import type { Run, RunStatus } from '../model.js';
import { pendingGates } from '../model.js';

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
  if (pendingGates(run, ['escalation']).length > 0) return 0;
  if (pendingGates(run, ['checkpoint', 'context', 'approval']).length > 0) return 1;
  return STATUS_RANK[run.status];
}

/** Sorts runs by urgency, ties by id. */
export function sortRuns(runs: Run[]): Run[] {
  const rank = new Map(runs.map((r) => [r, urgency(r)] as const));
  return [...runs].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function byRoot(a: Run, b: Run): number {
  const ka = `${a.root ?? ''}\u0000${a.stateDir ?? ''}`;
  const kb = `${b.root ?? ''}\u0000${b.stateDir ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Gives every run its id `<system>:<name>`; when two share one, the later by root gets `#2`, `#3`.
 * A run whose id is already right is returned as is (the live store keeps object identity).
 */
export function assignIds(runs: Run[]): Run[] {
  const taken = new Set<string>();
  const ids = new Map<Run, string>();
  for (const run of [...runs].sort(byRoot)) {
    const base = `${run.system}:${run.name}`;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}#${n}`;
    taken.add(id);
    ids.set(run, id);
  }
  return runs.map((run) => {
    const id = ids.get(run) ?? run.id;
    return run.id === id ? run : { ...run, id };
  });
}
