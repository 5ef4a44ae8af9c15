/**
 * The action verbs of the CLI: read one snapshot, resolve the run, plan, then run the plan with
 * progress on stderr and the result on stdout. Exit 0 done, 1 refused or failed, 3 checkpoint timeout.
 */
import type { AppContext } from '../context/context.js';
import type { BoxActions } from '../remote/actions.js';
import { openBoxes } from '../remote/boxes.js';
import { interruptedLine, markInterrupted } from '../kit/audit.js';
import { seconds } from '../kit/effects.js';
import type { ActionOutcome, ActionPlan, ActionProgress, ActionRequest, RunHooks } from '../kit/types.js';
import { cancellable } from '../kit/wait.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_TIMEOUT = 3;
/** A progress line at most this often while the message stays the same. */
const PROGRESS_EVERY_MS = 5000;

/** Prints progress lines to stderr: on every new message, else every few seconds. */
function progressPrinter(ctx: AppContext): (p: ActionProgress) => void {
  let last = '';
  let lastAt = 0;
  return (p) => {
    const now = Date.now();
    if (p.message === last && now - lastAt < PROGRESS_EVERY_MS) return;
    last = p.message;
    lastAt = now;
    const clock =
      p.elapsedMs !== undefined && p.timeoutMs !== undefined
        ? ` (${seconds(Math.round(p.elapsedMs / 1000) * 1000)} of ${seconds(p.timeoutMs)})`
        : '';
    ctx.err.write(`tower: ${p.message}${clock}${p.waitingFor ? `: ${p.waitingFor}` : ''}\n`);
  };
}

/** What a plan or an outcome approves, whole: every line, never cut. */
export function approvedText(lines: readonly string[] | undefined): string {
  return (lines ?? []).map((l) => `  ${l}\n`).join('');
}

function printOutcome(ctx: AppContext, outcome: ActionOutcome): void {
  const details = (outcome.details ?? []).map((d) => `  ${d}\n`).join('') + approvedText(outcome.approved);
  if (outcome.status === 'done') ctx.out.write(`${outcome.message}\n${details}`);
  else ctx.err.write(`tower: ${outcome.status}: ${outcome.message}\n${details}`);
}

interface VerbResult {
  plan: ActionPlan;
  outcome: ActionOutcome | null;
  code: number;
}

/** Plans and runs one request; prints as it goes. `quiet` leaves stdout to the caller (--json). */
async function runVerb(
  ctx: AppContext,
  req: ActionRequest,
  opts: { quiet?: boolean; hooks?: Partial<RunHooks> } = {},
): Promise<VerbResult> {
  // A run of another box is planned and run there, over its ssh connection. An answer and a line
  // typed need what each pane shows now and which agent CLI draws it: one capture round first.
  const boxes = await openBoxes(ctx, { activity: req.kind === 'answer' || req.kind === 'send' });
  try {
    return await runVerbOn(ctx, boxes.actions, req, opts);
  } finally {
    await boxes.close();
  }
}

async function runVerbOn(
  ctx: AppContext,
  actions: BoxActions,
  req: ActionRequest,
  opts: { quiet?: boolean; hooks?: Partial<RunHooks> },
): Promise<VerbResult> {
  // An earlier tower killed in the middle of an action: said before anything else is done.
  if (!ctx.dryRun) for (const e of await markInterrupted(ctx.env)) ctx.err.write(`tower: ${interruptedLine(e)}\n`);
  const plan = await actions.plan(req);
  if (ctx.dryRun) {
    if (plan.refusal !== null) {
      ctx.err.write(`tower: refused: ${plan.refusal}\n`);
      return { plan, outcome: null, code: EXIT_FAILURE };
    }
    if (!opts.quiet)
      ctx.out.write(
        (plan.approves ? `approves:\n${approvedText(plan.approves)}` : '') +
          plan.effects.map((e) => `${e.text}\n`).join(''),
      );
    return { plan, outcome: null, code: EXIT_OK };
  }
  // What an answer approves is printed whole before it is given: a long command's tail too.
  if (plan.refusal === null) ctx.err.write(`tower: ${plan.title}\n${approvedText(plan.approves)}`);
  const outcome = await cancellable((signal) =>
    actions.run(plan, { signal, onProgress: progressPrinter(ctx), ...opts.hooks }),
  );
  if (outcome.status === 'refused')
    ctx.err.write(`tower: refused: ${outcome.message}\n${(outcome.details ?? []).map((d) => `  ${d}\n`).join('')}`);
  else if (!opts.quiet || outcome.status !== 'done') printOutcome(ctx, outcome);
  const code =
    outcome.status === 'done'
      ? EXIT_OK
      : outcome.status === 'timeout' && req.kind === 'checkpoint'
        ? EXIT_TIMEOUT
        : EXIT_FAILURE;
  return { plan, outcome, code };
}

/** `tower grant <run> <gate> [--json]`. */
export async function grantCommand(
  ctx: AppContext,
  run: string,
  gate: string,
  opts: { json: boolean },
): Promise<number> {
  const r = await runVerb(ctx, { kind: 'grant', run, gate }, { quiet: opts.json });
  if (opts.json) {
    const detail = r.plan.detail?.kind === 'grant' ? r.plan.detail : null;
    const message = r.outcome
      ? r.outcome.message
      : (r.plan.refusal ?? `dry run: ${r.plan.effects.map((e) => e.text).join('; ')}`);
    const ok = r.code === EXIT_OK;
    ctx.out.write(`${JSON.stringify({ ok, run: r.plan.run?.id ?? run, gate, file: detail?.file ?? null, message })}\n`);
  }
  return r.code;
}

/** `tower request <run> <name> [--message TEXT]`. */
export async function requestCommand(
  ctx: AppContext,
  run: string,
  name: string,
  opts: { message?: string | undefined },
): Promise<number> {
  return (await runVerb(ctx, { kind: 'request', run, name, message: opts.message })).code;
}

/** `tower checkpoint <run> [--timeout S]`: 0 when the handoff is written, 3 on timeout. */
export async function checkpointCommand(
  ctx: AppContext,
  run: string,
  opts: { timeoutSec?: number | undefined },
): Promise<number> {
  const offerTerminate = async (alive: string[]): Promise<string[]> => {
    ctx.err.write(
      `tower: teammates still alive: ${alive.join(', ')} (to force-terminate them: tower terminate ${run})\n`,
    );
    return [];
  };
  return (await runVerb(ctx, { kind: 'checkpoint', run, timeoutSec: opts.timeoutSec }, { hooks: { offerTerminate } }))
    .code;
}

/** `tower rehydrate <run>`. */
export async function rehydrateCommand(ctx: AppContext, run: string): Promise<number> {
  return (await runVerb(ctx, { kind: 'rehydrate', run })).code;
}

/** `tower answer <run> --member NAME [--request ID] <choice>`: 0 when the prompt took the answer. */
export async function answerCommand(
  ctx: AppContext,
  run: string,
  choice: string,
  opts: { member?: string | undefined; request?: string | undefined },
): Promise<number> {
  return (
    await runVerb(ctx, {
      kind: 'answer',
      run,
      choice,
      members: opts.member ? [opts.member] : [],
      ...(opts.request !== undefined ? { request: opts.request } : {}),
    })
  ).code;
}

/** `tower send <run> [--member NAME] <text>`: 0 once the line is typed and submitted (confirmed or not yet). */
export async function sendCommand(
  ctx: AppContext,
  run: string,
  text: string,
  opts: { member?: string | undefined },
): Promise<number> {
  return (await runVerb(ctx, { kind: 'send', run, text, members: opts.member ? [opts.member] : [] })).code;
}

/** `tower terminate <run> [--member NAME]...`. */
export async function terminateCommand(ctx: AppContext, run: string, opts: { members: string[] }): Promise<number> {
  return (await runVerb(ctx, { kind: 'terminate', run, members: opts.members })).code;
}
