/**
 * Force-terminate: for each chosen member pane, SIGTERM its process tree (children first), wait a
 * grace period, SIGKILL what is left, kill the pane, then verify the pane and the processes are gone.
 * Only panes of the run's members are ever touched, and never a lead unless it was named.
 */
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import type { TerminateDetail, TerminateTarget } from '../kit/detail.js';
import { checkEffect, seconds, signalEffect, tmuxEffect, waitEffect } from '../kit/effects.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import { isPaneGone, refuse } from '../kit/execution.js';
import type { ProcInfo } from '../kit/process-tree.js';
import { isGone, listProcesses, processTree, protectedPids, sendSignal } from '../kit/process-tree.js';
import { namedMembers, workingTeamNames, workingTeammates } from './targets.js';
import { onServer, paneClient } from './pane-client.js';
import { processMismatch } from './pane-identity.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';
import { pollUntil } from '../kit/wait.js';

/** How long SIGKILLed processes get to disappear before they are reported as left over. */
const KILL_SETTLE_MS = 1000;

/** Plans force-terminate for the named members, or the working team's live teammates when none are named. */
export function planTerminate(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const names = req.members ?? [];
  if (names.length > 0) {
    const found = namedMembers(run, names);
    if ('refusal' in found) return refuse(found.refusal, `Force-terminate in ${run.id}`);
    return planTerminateTargets(ctx, run, found.targets, found.skipped);
  }
  const targets = workingTeammates(run);
  if (targets.length === 0) {
    const team = workingTeamNames(run)[0];
    return refuse(
      `nothing to terminate: ${run.id} has no live teammates with a ` +
        `pane${team ? ` in team ${team}` : ''} (leads are only terminated when named)`,
      `Force-terminate in ${run.id}`,
    );
  }
  return planTerminateTargets(ctx, run, targets, []);
}

/** The plan for a resolved list of member panes. */
export function planTerminateTargets(
  ctx: AppContext,
  run: Run,
  targets: TerminateTarget[],
  skipped: string[],
): PlanParts {
  const title = `Force-terminate ${targets.map((t) => `${t.name} (${t.paneId}${onServer(t.server)})`).join(', ')} in ${run.id}`;
  if (targets.length === 0)
    return refuse(`nothing to terminate: ${skipped.join('; ') || 'no member panes chosen'}`, title);
  const graceMs = ctx.config.killGraceSec * 1000;
  const effects = targets.flatMap((t) => [
    signalEffect(
      `SIGTERM the process tree of ${t.paneId}${onServer(t.server)} ` +
        `(${t.name}${t.lead ? ', a lead' : ''}): pane_pid from list-panes, children first`,
    ),
    waitEffect(`up to ${seconds(graceMs)} for those processes to exit`),
    signalEffect(`SIGKILL what is left of that tree`),
    tmuxEffect(paneClient(ctx, t.server), ['kill-pane', '-t', t.paneId]),
    checkEffect(`that ${t.paneId}${onServer(t.server)} and its processes are gone`),
  ]);
  const detail: TerminateDetail = { kind: 'terminate', targets, skipped, graceMs };
  return { refusal: null, title, target: targets.map((t) => t.name).join(','), effects, detail, destructive: true };
}

/** Each target's server's pane list now (null: that server is gone), one list-panes per server. */
async function panesByServer(
  ctx: AppContext,
  targets: readonly TerminateTarget[],
): Promise<Map<string | null, PaneInfo[] | null>> {
  const out = new Map<string | null, PaneInfo[] | null>();
  for (const t of targets) {
    const server = t.server ?? null;
    if (!out.has(server)) out.set(server, await paneClient(ctx, server).listPanesOrNull());
  }
  return out;
}

/** The targets whose panes are still open and alive now, each looked up on its own server. */
export async function liveTargets(ctx: AppContext, targets: readonly TerminateTarget[]): Promise<TerminateTarget[]> {
  const lists = await panesByServer(ctx, targets);
  return targets.filter((t) => lists.get(t.server ?? null)?.some((p) => p.paneId === t.paneId && !p.dead) ?? false);
}

interface PaneResult {
  ok: boolean;
  /** The pane was already gone: nothing was done to it. */
  gone?: boolean;
  line: string;
}

/** Runs force-terminate on every target at once (they share one grace period). */
export async function runTerminate(x: Execution, d: TerminateDetail): Promise<ActionOutcome> {
  const lists = await panesByServer(x.env.ctx, d.targets);
  if ([...lists.values()].every((l) => l === null))
    return {
      status: 'refused',
      message: 'nothing to terminate: there is no tmux server, so every pane is already gone',
    };
  x.progress({ message: `terminating ${d.targets.map((t) => t.name).join(', ')}` });
  const results = await Promise.all(
    d.targets.map((t) => terminatePane(x.env.ctx, t, lists.get(t.server ?? null) ?? [], d.graceMs)),
  );
  const details = [...results.map((r) => r.line), ...d.skipped];
  const failed = results.filter((r) => !r.ok);
  const names = d.targets.map((t) => t.name).join(', ');
  if (results.every((r) => r.gone)) {
    return { status: 'refused', message: `nothing to terminate: ${names} already gone`, details };
  }
  if (failed.length > 0)
    return {
      status: 'failed',
      message: `force-terminate left something running (${failed.length} of ${results.length})`,
      details,
    };
  return { status: 'done', message: `force-terminated ${names}`, details };
}

async function terminatePane(
  ctx: AppContext,
  t: TerminateTarget,
  panes: PaneInfo[],
  graceMs: number,
): Promise<PaneResult> {
  const who = `${t.name} (${t.paneId}${onServer(t.server)})`;
  // The pane's own server, and only it: the same %N on another server is another agent.
  const tmux = paneClient(ctx, t.server);
  const pane = panes.find((p) => p.paneId === t.paneId);
  if (!pane) return { ok: true, gone: true, line: `${who}: already gone` };
  // Asked again about this one pane right before any signal: the pid must be the pane's own
  // process now, a child of this tmux server, or nothing is signalled.
  const owner = await tmux.paneOwner(t.paneId);
  if (!owner) return { ok: true, gone: true, line: `${who}: already gone` };
  const wrong = processMismatch({ ...t, who: t.name }, owner.pid);
  if (wrong !== null) return { ok: false, line: `${who}: refused, ${wrong}; nothing was signalled` };
  const procs = listProcesses();
  if (owner.pid !== pane.pid || procs.get(owner.pid)?.ppid !== owner.serverPid) {
    const parent = procs.get(pane.pid)?.ppid;
    return {
      ok: false,
      line:
        `${who}: refused, pid ${pane.pid} is not that pane's process now (tmux says ${owner.pid}, ` +
        `its parent is ${parent ?? 'none'}, the tmux server is ${owner.serverPid}); nothing was signalled`,
    };
  }
  const keep = protectedPids(procs);
  if (keep.has(pane.pid)) return { ok: false, line: `${who}: refused, its pane runs tower itself (pid ${pane.pid})` };
  const tree = processTree(pane.pid, procs).filter((p) => !keep.has(p.pid));
  for (const p of tree) sendSignal(p, 'SIGTERM');
  await pollUntil({ timeoutMs: graceMs, intervalMs: 100, check: () => (tree.every(isGone) ? true : null) });

  // Kill parents first so they cannot fork again, including children forked during the grace period.
  const survivors = tree.filter((p) => !isGone(p));
  const killed: ProcInfo[] = [];
  if (survivors.length > 0) {
    const now = listProcesses();
    const seen = new Set<number>();
    for (const s of [...survivors].reverse()) {
      for (const p of processTree(s.pid, now).reverse()) {
        if (seen.has(p.pid) || keep.has(p.pid)) continue;
        seen.add(p.pid);
        if (sendSignal(p, 'SIGKILL')) killed.push(p);
      }
    }
    await pollUntil({ timeoutMs: KILL_SETTLE_MS, intervalMs: 50, check: () => (killed.every(isGone) ? true : null) });
  }

  try {
    await tmux.killPane(t.paneId);
  } catch (err) {
    // The pane closes by itself when its process exits; that is the expected case.
    if (!isPaneGone(err)) return { ok: false, line: `${who}: kill-pane failed: ${(err as Error).message}` };
  }
  const after = await tmux.listPanesOrNull();
  const paneLeft = after?.some((p) => p.paneId === t.paneId) ?? false;
  const left = [...tree, ...killed].filter((p) => !isGone(p));
  const signalled =
    `${tree.length} process${tree.length === 1 ? '' : 'es'} got SIGTERM` +
    (survivors.length ? `, ${survivors.length} ignored it and got SIGKILL` : ', all exited');
  const verdict = [
    paneLeft ? 'pane STILL OPEN' : 'pane closed',
    left.length ? `still running: ${[...new Set(left.map((p) => p.pid))].join(' ')}` : 'no process left',
  ];
  return { ok: !paneLeft && left.length === 0, line: `${who}: ${signalled}; ${verdict.join('; ')}` };
}
