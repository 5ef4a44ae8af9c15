/**
 * The checkpoint cycle, as tina's supervisor runs it: make sure the signal exists (for a system that keeps
 * one), type the
 * checkpoint command into the lead's pane, wait for the handoff (or the lead's CHECKPOINT COMPLETE),
 * offer to terminate stragglers after a while, and on timeout mark an escalation.
 */
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import { exists, mtimeMs } from '../files/look.js';
import type { CycleFiles } from '../systems/module.js';
import { systemOf } from '../systems/registry.js';
import type { CheckpointDetail, TerminateTarget } from '../kit/detail.js';
import { seconds, sendLineEffects, waitEffect, writeEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { refuse, toActionPlan } from '../kit/execution.js';
import { writeAtomic } from '../kit/files.js';
import { captureLead, ensureLeadPane, screenWhileWaiting } from './lead-pane.js';
import { UnsafePathError, linkRefusal, writableStateDir } from '../kit/safety.js';
import { findLead, workingTeammates } from './targets.js';
import { liveTargets, planTerminateTargets } from './terminate.js';
import type { ActionOutcome, ActionRequest, Effect } from '../kit/types.js';
import { countMarker, pollUntil } from '../kit/wait.js';
import { paneClient } from './pane-client.js';
import { recheckLead } from './pane-identity.js';
import { guardEffect, guardTyping, typingTarget } from './input-guard.js';
import { ownCommand, ownCycleOf, ownLineEffect } from './own-cycle.js';

/** The line a lead prints when its handoff is written. */
export const CHECKPOINT_COMPLETE = 'CHECKPOINT COMPLETE';
const POLL_MS = 500;

/** The signal file's content, in the shape tina's statusline writes it. */
export function signalBody(at: Date): string {
  return `{"triggered_at": ${JSON.stringify(at.toISOString())}, "source": "tower"}\n`;
}

/** The escalation tower marks when the handoff never comes (tina's own status files are left alone). */
export function escalationBody(reason: string, at: Date): string {
  return `${JSON.stringify({ reason, at: at.toISOString(), action: 'checkpoint' })}\n`;
}

/** The checkpoint cycle's plan for a run. */
export function planCheckpoint(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const found = findLead(run);
  if ('refusal' in found) return refuse(found.refusal, `Checkpoint ${run.id}`);
  const lead = found.lead;
  // A lead whose CLI runs no system commands (Codex) checkpoints with its own compact.
  const own = ownCycleOf(lead);
  const ownStep = own ? ownCommand(own, lead, 'compact', run.system) : null;
  if (ownStep && 'refusal' in ownStep) return refuse(ownStep.refusal, `Checkpoint ${run.id}`, lead.target);
  const command = ownStep?.command ?? ctx.config.commands[found.cycle.commands].checkpoint;
  const timeoutMs = (req.timeoutSec ?? ctx.config.checkpointTimeoutSec) * 1000;
  const detail: CheckpointDetail = {
    kind: 'checkpoint',
    lead,
    command,
    signalFile: null,
    writeSignal: false,
    handoffFile: null,
    escalationFile: null,
    stateDir: null,
    timeoutMs,
    stragglerAfterMs: ctx.config.stragglerAfterSec * 1000,
    teammates: workingTeammates(run),
    ...(own ? { own: own.id } : {}),
  };
  const w = stateFilesOf(run);
  if (w && 'refusal' in w) return refuse(w.refusal, `Checkpoint ${run.id}`, lead.target);
  if (w) {
    detail.stateDir = w.dir;
    detail.signalFile = w.files.signalFile;
    detail.writeSignal = !exists(detail.signalFile);
    detail.handoffFile = w.files.handoffFile;
    detail.escalationFile = w.files.escalationFile;
    const linked = linkRefusal(detail.signalFile) ?? linkRefusal(detail.escalationFile);
    if (linked) return refuse(linked, `Checkpoint ${run.id}`, lead.target);
  }
  const now = new Date();
  const effects = [
    ...(detail.writeSignal && detail.signalFile ? [writeEffect(detail.signalFile, signalBody(now))] : []),
    guardEffect(typingTarget(lead), command),
    ...(own
      ? [ownLineEffect(own, lead, command)]
      : sendLineEffects(paneClient(ctx, lead.server), lead.target, command)),
    waitEffect(`up to ${seconds(timeoutMs)} until ${waitingFor(detail)}`),
    waitEffect(
      `after ${seconds(detail.stragglerAfterMs)}: list teammates still alive` +
        (detail.teammates.length
          ? ` (${detail.teammates.map((t) => `${t.name} ${t.paneId}`).join(', ')})`
          : ' (none now)') +
        ' and offer to force-terminate them',
    ),
    ...(detail.escalationFile
      ? [onTimeout(writeEffect(detail.escalationFile, escalationBody(timeoutReason(detail), now)))]
      : []),
  ];
  return {
    refusal: null,
    title: `Checkpoint ${run.id} (lead ${lead.label})`,
    target: lead.target,
    effects,
    detail,
    destructive: true,
  };
}

/** The run's state directory and the cycle's files in it; null when its system keeps none. */
export function stateFilesOf(run: Run): { dir: string; files: CycleFiles } | { refusal: string } | null {
  const files = systemOf(run.system).cycle?.files;
  if (!files) return null;
  const w = writableStateDir(run);
  if ('refusal' in w) return w;
  return { dir: w.dir, files: files(w.dir, run) };
}

function onTimeout(e: Effect): Effect {
  return { kind: e.kind, text: `on timeout: ${e.text}` };
}

function waitingFor(d: CheckpointDetail): string {
  if (d.own) return `${d.lead.label} shows its conversation compacted`;
  const pane = `${d.lead.label} prints ${CHECKPOINT_COMPLETE}`;
  if (d.handoffFile && d.signalFile) return `${d.handoffFile} is newer than ${d.signalFile}, or ${pane}`;
  return pane;
}

function timeoutReason(d: CheckpointDetail): string {
  return `no handoff within ${seconds(d.timeoutMs)} after ${d.command} was typed into ${d.lead.label}`;
}

/** Runs the checkpoint cycle. */
export async function runCheckpoint(x: Execution, d: CheckpointDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  await ensureLeadPane(ctx, d.lead);
  // Looked at before the signal is written too: a refused cycle leaves nothing behind.
  if (!d.own) await guardTyping(ctx, typingTarget(d.lead), d.command);
  const details: string[] = [];
  let signalMtime: number | null = null;
  if (d.signalFile && d.stateDir) {
    const linked = linkRefusal(d.signalFile);
    if (linked) throw new UnsafePathError(linked);
    if (!exists(d.signalFile)) {
      await writeAtomic(d.stateDir, d.signalFile, signalBody(new Date()));
      details.push(`wrote ${d.signalFile}`);
    }
    signalMtime = mtimeMs(d.signalFile);
  }
  if (d.own)
    return (await import('./own-cycle-run.js')).runOwnCheckpoint(x, d, d.own, details, async (reason) => {
      if (!d.escalationFile || !d.stateDir) return null;
      await writeAtomic(d.stateDir, d.escalationFile, escalationBody(reason, new Date()));
      return d.escalationFile;
    });
  const handoffBefore = d.handoffFile ? mtimeMs(d.handoffFile) : null;
  const baseline = countMarker(await captureLead(ctx, d.lead), CHECKPOINT_COMPLETE);
  await recheckLead(ctx, d.lead);
  await guardTyping(ctx, typingTarget(d.lead), d.command);
  await paneClient(ctx, d.lead.server).sendLine(d.lead.target, d.command);
  const sentAt = Date.now();
  details.push(`typed ${d.command} into ${d.lead.label}`);

  // Newer than the signal, and rewritten since the command was typed (an old handoff does not count).
  const handoffWritten = (): boolean => {
    const m = d.handoffFile ? mtimeMs(d.handoffFile) : null;
    return m !== null && m !== handoffBefore && (signalMtime === null || m >= signalMtime);
  };
  const stragglers = new StragglerWatch(x, d);
  const what = waitingFor(d);
  const result = await pollUntil<'handoff' | 'pane'>({
    timeoutMs: d.timeoutMs,
    intervalMs: POLL_MS,
    signal: x.hooks.signal,
    check: async () => {
      const screen = await screenWhileWaiting(ctx, d.lead);
      const printed = countMarker(screen, CHECKPOINT_COMPLETE) > baseline;
      // Read after the capture: a lead writes its handoff before it prints the line.
      return handoffWritten() ? 'handoff' : printed ? 'pane' : null;
    },
    onTick: async (elapsedMs) => {
      const awaited = d.handoffFile ? `${d.lead.name}'s handoff` : `${d.lead.name}'s ${CHECKPOINT_COMPLETE}`;
      x.progress({ message: `waiting for ${awaited}`, elapsedMs, timeoutMs: d.timeoutMs, waitingFor: what });
      await stragglers.tick(elapsedMs);
    },
  });
  details.push(...(await stragglers.finish()));

  if (result.status === 'ok') {
    const took = seconds(Math.round((Date.now() - sentAt) / 100) * 100);
    const how =
      result.value === 'handoff'
        ? `${d.handoffFile ?? 'handoff'} written`
        : `${d.lead.name} printed ${CHECKPOINT_COMPLETE}`;
    if (result.value === 'pane' && d.handoffFile) details.push(`note: ${d.handoffFile} was not rewritten`);
    return { status: 'done', message: `checkpoint complete: ${how} (${took})`, details };
  }
  if (result.status === 'cancelled') {
    return {
      status: 'cancelled',
      message:
        `checkpoint cancelled after ${seconds(Math.round(result.elapsedMs))}; ${d.command} was ` +
        `already typed into ${d.lead.label}, which may still finish it`,
      details,
    };
  }
  const reason = timeoutReason(d);
  if (d.escalationFile && d.stateDir) {
    await writeAtomic(d.stateDir, d.escalationFile, escalationBody(reason, new Date()));
    return { status: 'timeout', message: `${reason}: escalated, see ${d.escalationFile}`, details };
  }
  return {
    status: 'timeout',
    message: `${reason}: escalate by hand (the run has no state directory to mark)`,
    details,
  };
}

/** After stragglerAfterMs, offers the teammates still alive for force-terminate, once, without blocking the wait. */
class StragglerWatch {
  private offered = false;
  private readonly started: Promise<string>[] = [];
  private readonly notes: string[] = [];

  constructor(
    private readonly x: Execution,
    private readonly d: CheckpointDetail,
  ) {}

  async tick(elapsedMs: number): Promise<void> {
    if (this.offered || elapsedMs < this.d.stragglerAfterMs) return;
    this.offered = true;
    const alive = await liveTargets(this.x.env.ctx, this.d.teammates);
    if (alive.length === 0) return;
    const names = alive.map((t) => t.name);
    this.notes.push(`after ${seconds(this.d.stragglerAfterMs)} still alive: ${names.join(', ')}`);
    const offer = this.x.hooks.offerTerminate;
    if (!offer) return;
    // Not awaited: the operator answers while the wait goes on.
    void offer(names).then(
      (chosen) => {
        const targets = alive.filter((t) => chosen.includes(t.name));
        if (targets.length > 0) this.started.push(this.terminate(targets));
      },
      (err: unknown) => this.notes.push(`force-terminate offer failed: ${(err as Error).message}`),
    );
  }

  private async terminate(targets: TerminateTarget[]): Promise<string> {
    const { ctx } = this.x.env;
    const request = { kind: 'terminate' as const, run: this.x.run.id, members: targets.map((t) => t.name) };
    const plan = toActionPlan(request, this.x.run, planTerminateTargets(ctx, this.x.run, targets, []));
    const outcome = await this.x.runAction(plan);
    return `force-terminate ${targets.map((t) => t.name).join(', ')}: ${outcome.status}: ${outcome.message}`;
  }

  /** Waits for terminations already under way and returns what happened. */
  async finish(): Promise<string[]> {
    const results = await Promise.all(this.started);
    return [...this.notes, ...results];
  }
}
