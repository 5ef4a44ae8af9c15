/**
 * Actions on every box: a run of this box is planned and run here as always; a run of another
 * host is planned and run on that host (its plan, its exact effects, its audit log), over the
 * host's stream, and recorded here too with `remote` naming the box. Attach opens `ssh -t` to the
 * pane on the host's tmux server.
 */
import { spawn } from 'node:child_process';
import { READ_ONLY, attachToPane, planAction, runAction } from '../actions/index.js';
import type { TerminalHandOver } from '../actions/attach.js';
import { beginAudit, settleOutcome } from '../kit/audit.js';
import type { ActionEnv, ActionOutcome, ActionPlan, ActionRequest, RunHooks } from '../kit/types.js';
import type { Run } from '../model/model.js';
import { resolveRun } from '../store/snapshot.js';
import type { CompositeStore } from './composite-store.js';
import { hostRunId, splitHostRunId } from './host-runs.js';
import type { HostLink } from './link.js';
import { shellQuote, sshArgv } from './ssh.js';

/** The actions as the control room and the CLI verbs call them, on any box. */
export interface BoxActions {
  plan(req: ActionRequest): ActionPlan | Promise<ActionPlan>;
  run(plan: ActionPlan, hooks: RunHooks): Promise<ActionOutcome>;
  attach(paneId: string, runId?: string | null): Promise<ActionOutcome>;
}

/** Actions over a composite store: remote runs go to their host. */
export function boxActions(env: ActionEnv, store: CompositeStore, io: TerminalHandOver): BoxActions {
  const hostOf = (runId: string): { link: HostLink; id: string } | null => {
    const split = splitHostRunId(
      runId,
      store.links.map((l) => l.host.name),
    );
    const link = split ? store.link(split.host) : undefined;
    return split && link ? { link, id: split.id } : null;
  };
  return {
    plan(req) {
      const found = resolveRun(env.snapshot(), req.run);
      // A run named with its box that this side has not seen (the box not up yet, or down): the
      // box is asked, and its refusal names what is wrong there rather than "no run matches".
      const remote = 'run' in found ? hostOf(found.run.id) : hostOf(req.run);
      if (!remote) return planAction(env, req);
      return planOnHost(env, remote.link, { ...req, run: remote.id });
    },
    async run(plan, hooks) {
      // A plan the box refused (or could not be asked for) has no run: its request still names the box.
      const remote = hostOf(plan.run?.id ?? plan.request.run);
      if (!remote) return runAction(env, plan, hooks);
      return runOnHost(env, remote.link, { ...plan.request, run: remote.id }, plan, hooks);
    },
    attach(paneId, runId) {
      const remote = runId ? hostOf(runId) : null;
      if (!remote) return attachToPane(env, paneId, io);
      return attachOnHost(env, remote.link, paneId, remote.id, io);
    },
  };
}

/**
 * A host's plan as shown here: its run under the id it has here, the title naming the box. The held
 * request the box's plan of an answer is bound to (its id and input hash) is kept: the box plans the
 * answer again when it runs, and must answer the request shown here or none.
 */
function localizePlan(link: HostLink, plan: ActionPlan, request: ActionRequest): ActionPlan {
  const name = link.host.name;
  const run: Run | null = plan.run ? { ...plan.run, id: hostRunId(name, plan.run.id), host: name } : null;
  const pinned = request.kind === 'answer' && plan.refusal === null ? plan.request.request : undefined;
  return {
    ...plan,
    request: { ...request, ...(pinned ? { request: pinned } : {}), run: run?.id ?? hostRunId(name, request.run) },
    run,
    title: `${plan.title}, on ${name} (${link.host.destination})`,
  };
}

/** Plans on the host; a host that cannot answer gives a refusal saying why. */
export async function planOnHost(env: ActionEnv, link: HostLink, request: ActionRequest): Promise<ActionPlan> {
  const run = hostRunId(link.host.name, request.run);
  // Read-only here means read-only everywhere: the host is not even asked.
  if (env.ctx.readonly)
    return {
      request: { ...request, run },
      run: null,
      title: `${request.kind} ${run}`,
      effects: [],
      refusal: READ_ONLY,
      destructive: request.kind !== 'attach',
    };
  try {
    return localizePlan(link, await link.plan(request, env.ctx.dryRun), request);
  } catch (err) {
    return {
      request: { ...request, run },
      run: null,
      title: `${request.kind} ${run}`,
      effects: [],
      refusal: (err as Error).message,
      destructive: request.kind !== 'attach',
    };
  }
}

/** Runs on the host, recording the outcome in this box's audit log with `remote` naming the host. */
export async function runOnHost(
  env: ActionEnv,
  link: HostLink,
  request: ActionRequest,
  plan: ActionPlan,
  hooks: RunHooks,
): Promise<ActionOutcome> {
  const started = Date.now();
  const rec = {
    action: request.kind,
    run: plan.run?.id ?? hostRunId(link.host.name, request.run),
    target: plan.target ?? null,
    remote: link.host.name,
  };
  let outcome: ActionOutcome;
  let id: string | null = null;
  if (plan.refusal !== null) outcome = { status: 'refused', message: plan.refusal };
  else if (env.ctx.readonly) outcome = { status: 'refused', message: READ_ONLY };
  else {
    // Audited here before the box is asked to act: a log that can't be written refuses the action.
    const begun = env.ctx.dryRun ? null : await beginAudit(env.ctx.env, rec, started, plan.title);
    if (begun?.failure) outcome = { status: 'refused', message: `${begun.failure}; nothing was done` };
    else {
      id = begun?.id ?? null;
      try {
        outcome = await link.run(request, env.ctx.dryRun, hooks);
      } catch (err) {
        outcome = { status: 'failed', message: (err as Error).message };
      }
    }
  }
  return settleOutcome(env.ctx.env, env.ctx.dryRun, rec, started, outcome, id);
}

/** The remote command that attaches to a pane on the host's tmux server. */
export function remoteAttachCommand(link: HostLink, paneId: string): string {
  const tmux = link.hello?.tmux ?? [];
  return ['tmux', ...tmux, 'attach-session', '-t', paneId].map(shellQuote).join(' ');
}

/** Hands the terminal to `ssh -t <host> tmux … attach-session -t <pane>` and comes back on detach. */
export async function attachOnHost(
  env: ActionEnv,
  link: HostLink,
  paneId: string,
  runId: string,
  io: TerminalHandOver,
): Promise<ActionOutcome> {
  const started = Date.now();
  const argv = sshArgv(link.host, link.opts.controlPath, 10, remoteAttachCommand(link, paneId), { tty: true });
  let outcome: ActionOutcome;
  if (!/^%\d+$/.test(paneId)) outcome = { status: 'refused', message: `"${paneId}" is not a pane id (like %3)` };
  else if (env.ctx.dryRun)
    outcome = {
      status: 'done',
      message: `dry run: nothing was done`,
      details: [`ssh ${argv.map(shellQuote).join(' ')}`],
    };
  else if (link.state.state !== 'ok')
    outcome = {
      status: 'refused',
      message: `${link.host.name} is ${link.state.state}${link.state.error ? `: ${link.state.error}` : ''}`,
    };
  else {
    await io.suspend();
    let code: number;
    try {
      code = await new Promise<number>((resolve) => {
        const child = spawn('ssh', argv, { stdio: 'inherit' });
        child.on('error', () => resolve(255));
        child.on('close', (c) => resolve(c ?? 255));
      });
    } finally {
      await io.resume();
    }
    outcome =
      code === 0
        ? { status: 'done', message: `back from ${paneId} on ${link.host.name}` }
        : {
            status: 'failed',
            message: `ssh -t ${link.host.destination} tmux attach-session -t ${paneId} exited ${code}`,
          };
  }
  return settleOutcome(
    env.ctx.env,
    env.ctx.dryRun,
    { action: 'attach', run: hostRunId(link.host.name, runId), target: paneId, remote: link.host.name },
    started,
    outcome,
  );
}
