/**
 * Grant a pending gate, in the run's own system's way (each system's module says which file it
 * writes). A second grant, or two at once, gives one write and one refusal.
 */
import type { AppContext } from '../context/context.js';
import type { Gate, Run } from '../model/model.js';
import { systemOf } from '../systems/registry.js';
import type { GrantDetail } from '../kit/detail.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse } from '../kit/execution.js';
import { linkRefusal, writableStateDir } from '../kit/safety.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';

function whyNotGrantable(run: Run, gate: Gate): string {
  if (gate.kind === 'context')
    return (
      `gate "context" of ${run.id} is a checkpoint signal, not a grant: run the checkpoint cycle ` +
      `(tower checkpoint ${run.id})`
    );
  if (gate.kind === 'escalation')
    return (
      `gate "${gate.id}" of ${run.id} is an escalation (${gate.title}): it can't be granted, it ` +
      `has to be resolved in the run`
    );
  return `gate "${gate.id}" of ${run.id} can't be granted`;
}

/** Plans a grant. */
export function planGrant(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const id = req.gate ?? '';
  const title = `Grant ${id} of ${run.id}`;
  const gate = run.gates.find((g) => g.id === id);
  if (!gate) {
    const ids = run.gates.map((g) => `${g.id} (${g.state})`).join(', ');
    return refuse(`${run.id} has no gate "${id}"${ids ? ` (gates: ${ids})` : ' (it has no gates)'}`, title, id);
  }
  if (gate.state === 'granted') return refuse(`gate "${id}" of ${run.id} is already granted`, title, id);
  if (!gate.grantable) return refuse(whyNotGrantable(run, gate), title, id);
  const w = writableStateDir(run);
  if ('refusal' in w) return refuse(w.refusal, title, id);
  const way = systemOf(run.system).grant;
  if (!way) return refuse(`tower can't grant ${run.system} gates`, title, id);
  const planned = way.plan(run, gate, w.dir, new Date(), ctx.env);
  if ('refusal' in planned) return refuse(planned.refusal, title, id);
  const detail: GrantDetail = { kind: 'grant', via: run.system, gate, stateDir: w.dir, ...planned.detail };
  // A grant through a service's API writes no file here.
  const linked = detail.url
    ? null
    : (linkRefusal(detail.file) ?? (detail.lockFile ? linkRefusal(detail.lockFile) : null));
  if (linked) return refuse(linked, title, id);
  return { refusal: null, title, target: id, effects: planned.effects, detail, destructive: true };
}

/** Runs a grant. */
export async function runGrant(x: Execution, d: GrantDetail): Promise<ActionOutcome> {
  const way = systemOf(d.via).grant;
  if (!way) return { status: 'refused', message: `tower can't grant ${d.via} gates` };
  const did = await way.run(d, x.run.id);
  return { status: 'done', message: `granted ${d.gate.id} of ${x.run.id}: ${did}` };
}
