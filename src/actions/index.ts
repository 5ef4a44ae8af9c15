/**
 * The operator's actions. planAction checks a request against the snapshot and lists its exact
 * effects (or refuses); runAction executes a plan, reporting progress, and records every run of an
 * action, whatever its outcome, in the audit log and the activity pane.
 */
import type { Run, Snapshot } from '../model/model.js';
import { resolveRun } from '../store/snapshot.js';
import { tmuxDownLine } from '../store/tmux-down.js';
import { sanitizeLine } from '../text/sanitize.js';
import { swarmLeadPid } from '../tmux/swarm.js';
import { planAnswer, planSend } from './answer.js';
import { planAttach, planAttachPane, runAttach } from './attach.js';
import type { TerminalHandOver } from './attach.js';
import { beginAudit, settleOutcome } from '../kit/audit.js';
import { planCheckpoint, runCheckpoint } from './checkpoint.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { ActionStop, outcomeOfError, refuse, toActionPlan } from '../kit/execution.js';
import { planGrant, runGrant } from './grant.js';
import { planRehydrate, runRehydrate } from './rehydrate.js';
import { planRequest, runRequest } from './request.js';
import { planTerminate, runTerminate } from './terminate.js';
import { paneRefusal } from './targets.js';
import type { ActionEnv, ActionOutcome, ActionPlan, ActionProgress, ActionRequest, RunHooks } from '../kit/types.js';
import type { RuleAnswer } from '../kit/detail.js';

export type { TerminalHandOver } from './attach.js';
export { auditLogPath } from '../kit/audit.js';
export type { AuditEntry } from '../kit/audit.js';

/** The refusal every action gets under --readonly. */
export const READ_ONLY = 'read-only mode';

function partsFor(env: ActionEnv, run: Run, req: ActionRequest): PlanParts {
  const ctx = env.ctx;
  switch (req.kind) {
    case 'checkpoint':
      return planCheckpoint(ctx, run, req);
    case 'rehydrate':
      return planRehydrate(ctx, run);
    case 'terminate':
      return planTerminate(ctx, run, req);
    case 'grant':
      return planGrant(ctx, run, req);
    case 'request':
      return planRequest(ctx, run, req);
    case 'attach':
      return planAttach(ctx, run, req);
    case 'answer':
      return planAnswer(ctx, run, req);
    case 'send':
      return planSend(ctx, run, req);
  }
}

/**
 * A refused action on a pane says so when tower's own tmux server is not running: its members'
 * panes are unknown then, and the refusal alone would not tell why (`-L` naming the wrong server).
 */
function sayServerDown(snapshot: Snapshot, req: ActionRequest, parts: PlanParts): PlanParts {
  if (parts.refusal === null || req.kind === 'grant' || req.kind === 'request') return parts;
  const down = tmuxDownLine(snapshot);
  return down === null ? parts : { ...parts, refusal: `${parts.refusal} (${down})` };
}

/** Checks a request against the current snapshot: the exact effects, or a refusal. Never throws. */
export function planAction(env: ActionEnv, req: ActionRequest): ActionPlan {
  const found = resolveRun(env.snapshot(), req.run);
  if ('error' in found) return toActionPlan(req, null, refuse(found.error));
  const run = found.run;
  if (env.ctx.readonly) return toActionPlan(req, run, refuse(READ_ONLY));
  try {
    return toActionPlan(req, run, sayServerDown(env.snapshot(), req, partsFor(env, run, req)));
  } catch (err) {
    return toActionPlan(req, run, refuse(`could not plan ${req.kind}: ${(err as Error).message}`));
  }
}

interface Recorded {
  action: string;
  run: string;
  target: string | null;
  rule?: RuleAnswer;
}

/** Runs `body` as one recorded action: an activity entry with progress, then one audit line. */
async function recorded(
  env: ActionEnv,
  rec: Recorded,
  title: string,
  hooks: RunHooks,
  body: (progress: (p: ActionProgress) => void, begin: () => Promise<void>) => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  const started = Date.now();
  let id: string | null = null;
  // Called by the body once it is about to act: the `begun` line first, or no acting at all.
  const begin = async (): Promise<void> => {
    const begun = await beginAudit(env.ctx.env, rec, started, title);
    if (begun.failure !== null) throw new ActionStop('refused', `${begun.failure}; nothing was done`);
    id = begun.id;
  };
  const activityId = env.activity?.push({
    action: rec.action,
    runId: rec.run,
    target: rec.target,
    status: 'running',
    message: title,
  });
  const progress = (p: ActionProgress): void => {
    if (activityId !== undefined) {
      const withWait = p.elapsedMs !== undefined && p.timeoutMs !== undefined;
      env.activity?.update(activityId, {
        message: sanitizeLine(p.message),
        progress: withWait
          ? { elapsedMs: p.elapsedMs ?? 0, timeoutMs: p.timeoutMs ?? 0, waitingFor: sanitizeLine(p.waitingFor ?? '') }
          : undefined,
      });
    }
    hooks.onProgress?.(p);
  };
  let outcome: ActionOutcome;
  try {
    outcome = await body(progress, begin);
  } catch (err) {
    outcome = outcomeOfError(err);
  }
  outcome = await settleOutcome(env.ctx.env, env.ctx.dryRun, rec, started, outcome, id);
  if (activityId !== undefined) {
    env.activity?.update(activityId, {
      status: outcome.status,
      message: outcome.message,
      progress: undefined,
      // What an answer approved stays in view, whole, with the outcome.
      details: outcome.approved ? [...(outcome.details ?? []), ...outcome.approved] : outcome.details,
    });
  }
  return outcome;
}

/** Executes a plan (a refused plan is recorded as refused); in dry-run mode it only reports the effects. */
export async function runAction(env: ActionEnv, plan: ActionPlan, hooks: RunHooks = {}): Promise<ActionOutcome> {
  // A plan built elsewhere (without its details) is checked again against the current snapshot.
  const p = plan.refusal === null && !plan.detail ? planAction(env, plan.request) : plan;
  const rec: Recorded = { action: p.request.kind, run: p.run?.id ?? p.request.run, target: p.target ?? null };
  if (p.request.byRule) rec.rule = p.request.byRule;
  return recorded(env, rec, p.title, hooks, async (progress, begin) => {
    if (p.refusal !== null) return { status: 'refused', message: p.refusal };
    if (env.ctx.readonly) return { status: 'refused', message: READ_ONLY };
    if (env.ctx.dryRun)
      return {
        status: 'done',
        message: `dry run: nothing was done (${p.title})`,
        details: p.effects.map((e) => e.text),
      };
    const d = p.detail;
    const run = p.run;
    if (!d || !run) return { status: 'failed', message: `plan for ${p.request.kind} has nothing to run` };
    await begin();
    const x: Execution = {
      env,
      hooks,
      run,
      progress,
      runAction: (next) => runAction(env, next, { signal: hooks.signal }),
    };
    switch (d.kind) {
      case 'checkpoint':
        return runCheckpoint(x, d);
      case 'rehydrate':
        return runRehydrate(x, d);
      case 'terminate':
        return runTerminate(x, d);
      case 'grant':
        return runGrant(x, d);
      case 'request':
        return runRequest(x, d);
      case 'attach':
        // A plan has no screen to hand over; the control room attaches through attachToPane.
        return runAttach(env.ctx, d, { suspend: () => {}, resume: () => {} });
      // Typing into a pane loads with the first answer or line sent, off the screen's start.
      case 'answer':
        return (await import('./typed-runs.js')).runAnswer(x, d);
      case 'send':
        return (await import('./typed-runs.js')).runSend(x, d);
    }
  });
}

/**
 * Attaches the operator to a pane (switch-client inside tmux, else a hand-over of the terminal);
 * recorded like any action. `pane` is a pane id (`%3`, on tower's server) or, for a pane on a
 * Claude Code swarm server, `<server>/%3`.
 */
export async function attachToPane(env: ActionEnv, pane: string, io: TerminalHandOver): Promise<ActionOutcome> {
  const at = pane.lastIndexOf('/');
  const server = at < 0 ? null : pane.slice(0, at);
  const paneId = at < 0 ? pane : pane.slice(at + 1);
  const run = env
    .snapshot()
    .runs.find((r) => r.members.some((m) => m.paneId === paneId && (m.tmuxServer ?? null) === server));
  const member = run?.members.find((m) => m.paneId === paneId && (m.tmuxServer ?? null) === server);
  const rec = { action: 'attach', run: run?.id ?? '-', target: sanitizeLine(pane) };
  const who = member && run ? `${member.name} of ${run.id}` : sanitizeLine(paneId);
  const serverOk = server === null || swarmLeadPid(server) !== null;
  const parts = planAttachPane(env.ctx, paneId, who, serverOk ? server : null, member?.paneProcess);
  return recorded(env, rec, parts.title, {}, async (_progress, begin) => {
    if (env.ctx.readonly) return { status: 'refused', message: READ_ONLY };
    if (!/^%\d+$/.test(paneId))
      return { status: 'refused', message: `"${sanitizeLine(paneId)}" is not a pane id (like %3)` };
    if (!serverOk)
      return {
        status: 'refused',
        message: `"${sanitizeLine(server ?? '')}" is not a Claude Code swarm server's socket name (claude-swarm-<pid>)`,
      };
    const no = member ? paneRefusal(member) : null;
    if (no !== null) return { status: 'refused', message: `${member!.name}: ${no}` };
    if (env.ctx.dryRun)
      return {
        status: 'done',
        message: `dry run: nothing was done (${parts.title})`,
        details: parts.effects.map((e) => e.text),
      };
    await begin();
    return runAttach(env.ctx, parts.detail, io);
  });
}
