/**
 * Rehydrate a lead after its checkpoint: type the clear command, wait (briefly) for the prompt, type
 * the rehydrate command, delete the checkpoint signal, then wait for REHYDRATE COMPLETE. Every wait is
 * bounded: the outcome says what was seen, it never blocks forever.
 */
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import { exists } from '../files/look.js';
import { stateFilesOf } from './checkpoint.js';
import type { RehydrateDetail } from '../kit/detail.js';
import { deleteEffect, seconds, sendLineEffects, waitEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { ActionStop, refuse } from '../kit/execution.js';
import { deleteFile } from '../kit/files.js';
import { captureLead, ensureLeadPane, screenWhileWaiting } from './lead-pane.js';
import { findLead } from './targets.js';
import type { ActionOutcome } from '../kit/types.js';
import { countMarker, pollUntil, showsPrompt } from '../kit/wait.js';
import { paneClient } from './pane-client.js';
import { recheckLead } from './pane-identity.js';
import { guardEffect, guardTyping, typingTarget } from './input-guard.js';
import { ownCommand, ownCycleOf, ownLineEffect } from './own-cycle.js';

/** The line a lead prints when it has restored itself from the handoff. */
export const REHYDRATE_COMPLETE = 'REHYDRATE COMPLETE';
/** How long the clear command gets to bring back the prompt (tina itself just sleeps 2 s). */
export const PROMPT_TIMEOUT_MS = 5000;

/** Plans the rehydrate step for a run. */
export function planRehydrate(ctx: AppContext, run: Run): PlanParts {
  const title = `Rehydrate ${run.id}`;
  const found = findLead(run);
  if ('refusal' in found) return refuse(found.refusal, title);
  const lead = found.lead;
  const commands = ctx.config.commands[found.cycle.commands];
  // A lead whose CLI runs no system commands (Codex) is cleared with its own command, and only that.
  const own = ownCycleOf(lead);
  const ownStep = own ? ownCommand(own, lead, 'clear', run.system) : null;
  if (ownStep && 'refusal' in ownStep) return refuse(ownStep.refusal, title, lead.target);
  const detail: RehydrateDetail = {
    kind: 'rehydrate',
    lead,
    clear: ownStep?.command ?? commands.clear,
    rehydrate: commands.rehydrate,
    signalFile: null,
    stateDir: null,
    promptTimeoutMs: PROMPT_TIMEOUT_MS,
    timeoutMs: ctx.config.rehydrateTimeoutSec * 1000,
    ...(own ? { own: own.id } : {}),
  };
  const w = stateFilesOf(run);
  if (w && 'refusal' in w) return refuse(w.refusal, title, lead.target);
  if (w) {
    // Clearing a lead that has no handoff to come back from would lose its context for good.
    const handoff = w.files.handoffFile;
    if (!handoff || !exists(handoff)) {
      return refuse(
        `no handoff to rehydrate from (${handoff ?? 'the current phase is unknown'}): run the checkpoint first`,
        title,
        lead.target,
      );
    }
    detail.stateDir = w.dir;
    detail.signalFile = w.files.signalFile;
  }
  const effects = own
    ? [
        guardEffect(typingTarget(lead), detail.clear),
        ownLineEffect(own, lead, detail.clear),
        waitEffect(`up to ${seconds(detail.timeoutMs)} for ${lead.label} to show its conversation restarted`),
        ...(detail.signalFile ? [deleteEffect(detail.signalFile, '(if present)')] : []),
        waitEffect(`no ${detail.rehydrate}: ${own.label} runs no ${run.system} commands`),
      ]
    : [
        guardEffect(typingTarget(lead), detail.clear),
        ...sendLineEffects(paneClient(ctx, lead.server), lead.target, detail.clear),
        waitEffect(
          `up to ${seconds(detail.promptTimeoutMs)} for a prompt (a last line starting with > or ❯) in ${lead.label}`,
        ),
        guardEffect(typingTarget(lead), detail.rehydrate),
        ...sendLineEffects(paneClient(ctx, lead.server), lead.target, detail.rehydrate),
        ...(detail.signalFile ? [deleteEffect(detail.signalFile, '(if present)')] : []),
        waitEffect(`up to ${seconds(detail.timeoutMs)} for ${lead.label} to print ${REHYDRATE_COMPLETE}`),
      ];
  return {
    refusal: null,
    title: `${title} (lead ${lead.label})`,
    target: lead.target,
    effects,
    detail,
    destructive: true,
  };
}

/** Runs the rehydrate step. */
export async function runRehydrate(x: Execution, d: RehydrateDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  const signal = x.hooks.signal;
  await ensureLeadPane(ctx, d.lead);
  if (d.own) return (await import('./own-cycle-run.js')).runOwnRehydrate(x, d, d.own);
  const details: string[] = [];
  await recheckLead(ctx, d.lead);
  await guardTyping(ctx, typingTarget(d.lead), d.clear);
  await paneClient(ctx, d.lead.server).sendLine(d.lead.target, d.clear);
  details.push(`typed ${d.clear} into ${d.lead.label}`);

  const prompt = await pollUntil({
    timeoutMs: d.promptTimeoutMs,
    intervalMs: 200,
    signal,
    check: async () => (showsPrompt(await screenWhileWaiting(ctx, d.lead), d.clear) ? true : null),
    onTick: (elapsedMs) =>
      x.progress({
        message: 'waiting for the prompt',
        elapsedMs,
        timeoutMs: d.promptTimeoutMs,
        waitingFor: `a prompt in ${d.lead.label}`,
      }),
  });
  if (prompt.status === 'cancelled') return cancelled(d, prompt.elapsedMs, details);
  if (prompt.status === 'timeout')
    details.push(`no prompt after ${seconds(d.promptTimeoutMs)}; typed the rehydrate command anyway`);

  const baseline = countMarker(await captureLead(ctx, d.lead), REHYDRATE_COMPLETE);
  await recheckLead(ctx, d.lead);
  try {
    await guardTyping(ctx, typingTarget(d.lead), d.rehydrate);
  } catch (err) {
    if (!(err instanceof ActionStop)) throw err;
    return { status: err.status, message: `${err.message} (${d.clear} was typed already)`, details };
  }
  await paneClient(ctx, d.lead.server).sendLine(d.lead.target, d.rehydrate);
  details.push(`typed ${d.rehydrate}`);
  if (d.signalFile && d.stateDir) {
    const deleted = await deleteFile(d.stateDir, d.signalFile);
    details.push(deleted ? `deleted ${d.signalFile}` : `${d.signalFile} was already gone`);
  }

  const done = await pollUntil({
    timeoutMs: d.timeoutMs,
    intervalMs: 500,
    signal,
    check: async () =>
      countMarker(await screenWhileWaiting(ctx, d.lead), REHYDRATE_COMPLETE) > baseline ? true : null,
    onTick: (elapsedMs) =>
      x.progress({
        message: `waiting for ${d.lead.name} to rehydrate`,
        elapsedMs,
        timeoutMs: d.timeoutMs,
        waitingFor: `${REHYDRATE_COMPLETE} in ${d.lead.label}`,
      }),
  });
  if (done.status === 'ok')
    return { status: 'done', message: `rehydrated: ${d.lead.name} printed ${REHYDRATE_COMPLETE}`, details };
  if (done.status === 'cancelled') return cancelled(d, done.elapsedMs, details);
  return {
    status: 'timeout',
    message:
      `${d.rehydrate} was typed but ${d.lead.label} printed no ${REHYDRATE_COMPLETE} within ` +
      `${seconds(d.timeoutMs)}; look at the pane`,
    details,
  };
}

function cancelled(d: RehydrateDetail, elapsedMs: number, details: string[]): ActionOutcome {
  return {
    status: 'cancelled',
    message: `rehydrate cancelled after ${seconds(Math.round(elapsedMs))} (${d.lead.label} may be mid-way)`,
    details,
  };
}
