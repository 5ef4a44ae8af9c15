/**
 * Running a step of a lead's own checkpoint cycle (own-cycle.ts says which leads and why): typed
 * through the input guard the CLI's way, taken once its screen confirms it. Loaded when it runs.
 */
import type { AppContext } from '../context/context.js';
import { agentCli } from '../agents/registry.js';
import type { AgentWays, CycleConfirm } from '../agents/types.js';
import { waysFor } from '../agents/ways-for.js';
import type { AgentId } from '../model/values.js';
import type { CheckpointDetail, LeadTarget, RehydrateDetail } from '../kit/detail.js';
import { ActionStop } from '../kit/execution.js';
import type { Execution } from '../kit/execution.js';
import { seconds } from '../kit/effects.js';
import type { ActionOutcome } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';
import { deleteFile } from '../kit/files.js';
import { typeLine } from './agent-typing.js';
import { captureLead, screenWhileWaiting } from './lead-pane.js';
import { recheckLead } from './pane-identity.js';
import { guardTyping, typingTarget } from './input-guard.js';

/** The CLI's ways with the confirmations of its own cycle; a refusal when it has none. */
async function waysWithCycle(agent: AgentId): Promise<AgentWays & { cycle: CycleConfirm }> {
  const cli = agentCli(agent);
  const ways = cli ? await waysFor(agent) : null;
  if (!cli || !ways?.cycle)
    throw new ActionStop('refused', `tower cannot confirm a checkpoint step on ${cli?.label ?? agent}: nothing typed`);
  return ways as AgentWays & { cycle: CycleConfirm };
}

/** Types a step of the CLI's own cycle through the guard and waits until its screen confirms it. */
export async function typeOwnStep(
  x: Execution,
  lead: LeadTarget,
  agent: AgentId,
  command: string,
  confirmed: (c: CycleConfirm, before: string, after: string) => boolean,
  timeoutMs: number,
  waitingFor: string,
): Promise<{ status: 'ok' | 'timeout' | 'cancelled'; elapsedMs: number; typedAt: number }> {
  const ctx: AppContext = x.env.ctx;
  const ways = await waysWithCycle(agent);
  await recheckLead(ctx, lead);
  await guardTyping(ctx, typingTarget(lead), command, ways);
  const before = await captureLead(ctx, lead);
  await typeLine(ctx, lead.target, lead.server, command, ways);
  const typedAt = Date.now();
  const result = await pollUntil({
    timeoutMs,
    intervalMs: 200,
    signal: x.hooks.signal,
    check: async () => (confirmed(ways.cycle, before, await screenWhileWaiting(ctx, lead)) ? true : null),
    onTick: (elapsedMs) => x.progress({ message: `waiting for ${waitingFor}`, elapsedMs, timeoutMs, waitingFor }),
  });
  return {
    status: result.status,
    elapsedMs: result.status === 'ok' ? Date.now() - typedAt : result.elapsedMs,
    typedAt,
  };
}

/** Rehydrate on such a lead: its own clear, confirmed, then the system's signal deleted. */
export async function runOwnRehydrate(x: Execution, d: RehydrateDetail, agent: AgentId): Promise<ActionOutcome> {
  const label = agentCli(agent)?.label ?? agent;
  const what = `${d.lead.label} to show its conversation restarted`;
  const details: string[] = [];
  const r = await typeOwnStep(x, d.lead, agent, d.clear, (c, b, a) => c.cleared(b, a), d.timeoutMs, what);
  details.push(`typed ${d.clear} into ${d.lead.label}`);
  if (r.status === 'cancelled')
    return {
      status: 'cancelled',
      message: `rehydrate cancelled after ${seconds(Math.round(r.elapsedMs))} (${d.clear} was typed)`,
      details,
    };
  if (r.status === 'timeout')
    return {
      status: 'timeout',
      message: `${d.clear} was typed but ${d.lead.label} did not show its conversation restarted within ${seconds(d.timeoutMs)}; look at the pane`,
      details,
    };
  if (d.signalFile && d.stateDir) {
    const deleted = await deleteFile(d.stateDir, d.signalFile);
    details.push(deleted ? `deleted ${d.signalFile}` : `${d.signalFile} was already gone`);
  }
  details.push(`${d.rehydrate} not typed: ${label} runs no system commands`);
  return {
    status: 'done',
    message: `rehydrated: ${d.lead.name} started a new conversation (${d.clear}; ${label} shows it restarted)`,
    details,
  };
}

/**
 * The checkpoint on such a lead, once the system's signal is written: its own compact, taken once
 * its screen shows the conversation compacted. `escalate` marks a timeout the system's way.
 */
export async function runOwnCheckpoint(
  x: Execution,
  d: CheckpointDetail,
  agent: AgentId,
  details: string[],
  escalate: (reason: string) => Promise<string | null>,
): Promise<ActionOutcome> {
  const what = `${d.lead.label} to show its conversation compacted`;
  const r = await typeOwnStep(x, d.lead, agent, d.command, (c, b, a) => c.compacted(b, a), d.timeoutMs, what);
  details.push(`typed ${d.command} into ${d.lead.label}`);
  if (r.status === 'ok')
    return {
      status: 'done',
      message:
        `checkpoint complete: ${d.lead.name} compacted its conversation into its own handoff ` +
        `(${d.command}, ${seconds(Math.round(r.elapsedMs / 100) * 100)})`,
      details,
    };
  if (r.status === 'cancelled')
    return {
      status: 'cancelled',
      message: `checkpoint cancelled after ${seconds(Math.round(r.elapsedMs))}; ${d.command} was already typed into ${d.lead.label}`,
      details,
    };
  const reason = `${d.lead.label} did not show its conversation compacted within ${seconds(d.timeoutMs)} after ${d.command}`;
  const file = await escalate(reason);
  return {
    status: 'timeout',
    message: file ? `${reason}: escalated, see ${file}` : `${reason}: escalate by hand`,
    details,
  };
}
