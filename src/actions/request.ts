/**
 * Request a named checkpoint on a run, in its own system's way (the system's module says what is
 * written and what runs); a run of a system that has no named checkpoints is refused.
 */
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import { runsOf, systemOf } from '../systems/registry.js';
import type { RequestDetail } from '../kit/detail.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';

/** Plans a checkpoint request. */
export function planRequest(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const name = req.name ?? '';
  const title = `Request checkpoint ${name} on ${run.id}`;
  const way = systemOf(run.system).requests;
  if (!way)
    return refuse(
      `${run.id} is a ${run.system} run: named checkpoints are requested on ${runsOf((m) => m.requests !== null)}`,
      title,
      name,
    );
  return way.plan(ctx, run, req, title);
}

/** Runs a checkpoint request. */
export async function runRequest(x: Execution, d: RequestDetail): Promise<ActionOutcome> {
  const way = systemOf(x.run.system).requests;
  if (!way)
    return { status: 'refused', message: `${x.run.id} is a ${x.run.system} run: it takes no named checkpoints` };
  return way.run(x, d);
}
