/**
 * Attach the operator to a pane. Inside tmux on the same server, the operator's client switches to
 * the pane; otherwise the terminal is handed to `tmux attach-session` and comes back on detach.
 */
import fs from 'node:fs';
import type { AppContext } from '../context/context.js';
import type { Run } from '../model/model.js';
import type { AttachDetail, PaneProcess } from '../kit/detail.js';
import { tmuxEffect } from '../kit/effects.js';
import type { PlanParts } from '../kit/execution.js';
import { ActionStop, isPaneGone, refuse } from '../kit/execution.js';
import { hasPane, paneRefusal } from './targets.js';
import { HINT_MS, detachHint, prefixKey } from './detach-hint.js';
import { memberNamed, runLead } from './member-name.js';
import { recheckPane } from './pane-identity.js';
import { onServer, paneClient } from './pane-client.js';
import type { TmuxClient } from '../tmux/client.js';
import type { ActionOutcome, ActionRequest } from '../kit/types.js';

/** What the screen does around a hand-over of the terminal. */
export interface TerminalHandOver {
  suspend(): Promise<void> | void;
  resume(): Promise<void> | void;
}

/** Plans attaching to a member's pane (the first member named, else the run's lead). */
export function planAttach(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const name = req.members?.[0];
  const named = name ? memberNamed(run, name) : undefined;
  if (named && 'refusal' in named) return refuse(named.refusal, `Attach to ${run.id}`);
  const lead = runLead(run);
  const member = named ?? (lead && hasPane(lead) ? lead : run.members.find((m) => m.lead && hasPane(m)));
  if (!member || !member.paneId)
    return refuse(
      name ? `${member?.name ?? name} of ${run.id} has no tmux pane` : `${run.id} has no lead with a pane`,
      `Attach to ${run.id}`,
    );
  const no = paneRefusal(member);
  if (no !== null) return refuse(`${member.name} of ${run.id}: ${no}`, `Attach to ${run.id}`);
  // A pane id whose pane is gone may be given to another agent's pane before the attach runs.
  if (member.state === 'dead')
    return refuse(`${member.name}'s pane ${member.paneId} of ${run.id} is gone`, `Attach to ${run.id}`);
  return planAttachPane(
    ctx,
    member.paneId,
    `${member.name} of ${run.id}`,
    member.tmuxServer ?? null,
    member.paneProcess,
  );
}

/** The plan parts of an attach, which is never refused once a pane is known. */
export type AttachParts = Extract<PlanParts, { refusal: null }> & { detail: AttachDetail };

/** Plans attaching to a pane id, on a swarm server when `server` names one. */
export function planAttachPane(
  ctx: AppContext,
  paneId: string,
  who: string,
  server: string | null = null,
  process?: PaneProcess,
): AttachParts {
  const detail: AttachDetail = { kind: 'attach', paneId, server, ...(process ? { process } : {}) };
  const tmux = paneClient(ctx, server);
  // A client of tower's server can switch only to that server's panes: a swarm server's pane is attached to.
  const effects =
    insideTmux(ctx) && !server
      ? [tmuxEffect(tmux, ['switch-client', '-c', '<your client tty>', '-t', paneId])]
      : [tmuxEffect(tmux, ['attach-session', '-t', paneId])];
  return {
    refusal: null,
    title: `Attach to ${who} (${paneId}${onServer(server)})`,
    target: paneId,
    effects,
    detail,
    destructive: false,
  };
}

function insideTmux(ctx: AppContext): boolean {
  return typeof ctx.env.TMUX === 'string' && ctx.env.TMUX !== '';
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The tty of the client showing tower's own pane, when tower runs inside tmux on the server that
 * holds `paneId`; null otherwise (another server, or no client found).
 */
async function ourClient(ctx: AppContext, tmux: TmuxClient, paneSocket: string): Promise<string | null> {
  if (!insideTmux(ctx)) return null;
  const ourSocket = (ctx.env.TMUX ?? '').split(',')[0] ?? '';
  if (realpathOr(ourSocket) !== realpathOr(paneSocket)) return null;
  const clients = await tmux.listClients();
  const ours = clients.filter((c) => c.paneId === ctx.env.TMUX_PANE).sort((a, b) => b.activity - a.activity);
  return ours[0]?.tty ?? null;
}

/** Switches to or attaches to the pane; the hand-over is suspended/resumed around an attach. */
export async function runAttach(ctx: AppContext, d: AttachDetail, io: TerminalHandOver): Promise<ActionOutcome> {
  const tmux = paneClient(ctx, d.server);
  const where = `${d.paneId}${onServer(d.server)}`;
  let found: string;
  try {
    found = await tmux.displayMessage(d.paneId, '#{pane_id}\t#{socket_path}');
  } catch (err) {
    if (isPaneGone(err)) throw new ActionStop('failed', `pane ${where} is gone: ${(err as Error).message}`);
    throw err;
  }
  // display-message prints nothing (and succeeds) for a pane id that does not exist.
  const [paneId, socket = ''] = found.split('\t');
  if (paneId !== d.paneId) throw new ActionStop('failed', `pane ${where} is gone`);
  await recheckPane(ctx, { paneId: d.paneId, server: d.server, process: d.process, who: 'the member' });
  const client = await ourClient(ctx, tmux, socket);
  const hint = detachHint(await prefixKey(tmux));
  if (client) {
    await tmux.switchClient(client, d.paneId);
    await tmux.run(['display-message', '-c', client, '-d', String(HINT_MS), hint]).catch(() => undefined);
    return { status: 'done', message: `switched your tmux client to ${d.paneId}: ${hint}` };
  }
  await io.suspend();
  let code: number;
  try {
    code = await tmux.attachSession(d.paneId, hint);
  } finally {
    await io.resume();
  }
  if (code !== 0)
    return { status: 'failed', message: `tmux attach-session -t ${d.paneId}${onServer(d.server)} exited ${code}` };
  return { status: 'done', message: `back from ${where}` };
}
