/**
 * Request a named checkpoint on a harness run, as the harness API does for an operator: write
 * `checkpoint-<name>.md` (refused while one is pending), then run `hooks/on-checkpoint-fired.sh`
 * when it is there, logging its output. A failing hook is a warning, not a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { AppContext } from '../context.js';
import type { Run } from '../model.js';
import { CHECKPOINT_NAME } from '../systems/harness/read.js';
import { exists } from '../files/read.js';
import { currentUser } from './audit.js';
import type { RequestDetail } from './detail.js';
import { createEffect, runEffect } from './effects.js';
import type { Execution, PlanParts } from './execution.js';
import { ActionStop, refuse } from './execution.js';
import { createExclusive, makeDirInside, writeAtomic } from './files.js';
import { checkpointNameRefusal, linkRefusal, writableStateDir } from './safety.js';
import type { ActionOutcome, ActionRequest } from './types.js';

/** The harness hook run when a checkpoint is created (in `<root>/hooks/`). */
export const HOOK_NAME = 'on-checkpoint-fired.sh';
/** How long the hook may run before it is killed (and reported as a warning). */
export const HOOK_TIMEOUT_MS = 30_000;

/** The body of a manual checkpoint request, in the harness's own layout. */
export function requestBody(o: { name: string; run: string; at: Date; by: string; message: string }): string {
  const message = o.message.trim() === '' ? '' : `${o.message.trim()}\n\n`;
  return (
    `# Checkpoint: ${o.name} (manual request)\n\n` +
    `Requested at: ${o.at.toISOString()}\n` +
    `By: ${o.by} via tower\n\n` +
    message +
    `## How to grant\n- tower grant ${o.run} ${o.name}\n`
  );
}

function hookIfExecutable(root: string): string | null {
  const hook = path.join(root, 'hooks', HOOK_NAME);
  try {
    if (!fs.statSync(hook).isFile()) return null;
    fs.accessSync(hook, fs.constants.X_OK);
    return hook;
  } catch {
    return null;
  }
}

function hookEnv(d: RequestDetail): Record<string, string> {
  return { CHECKPOINT_NAME: d.name, TRIGGER: 'manual', PROJECT_DIR: d.root, STATE_DIR: d.stateDir };
}

/** Plans a checkpoint request. */
export function planRequest(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const name = req.name ?? '';
  const title = `Request checkpoint ${name} on ${run.id}`;
  if (run.system !== 'harness') return refuse(`${run.id} is a ${run.system} run: named checkpoints are requested on harness runs`, title, name);
  if (!CHECKPOINT_NAME.test(name)) return refuse(`bad checkpoint name "${name}": use letters, digits, _ . - only`, title, name);
  const badName = checkpointNameRefusal(name);
  if (badName) return refuse(badName, title, name);
  const w = writableStateDir(run);
  if ('refusal' in w) return refuse(w.refusal, title, name);
  if (!run.root) return refuse(`${run.id} has no project root`, title, name);
  const file = path.join(w.dir, `checkpoint-${name}.md`);
  const linked = linkRefusal(file) ?? linkRefusal(`${file}.granted`);
  if (linked) return refuse(linked, title, name);
  if (exists(file)) {
    return refuse(
      exists(`${file}.granted`)
        ? `checkpoint ${name} was granted but the harness has not consumed it yet (${file}.granted); re-run the harness first`
        : `checkpoint ${name} is already pending (${file})`,
      title,
      name,
    );
  }
  const detail: RequestDetail = {
    kind: 'request',
    name,
    stateDir: w.dir,
    root: run.root,
    file,
    message: req.message ?? '',
    hook: hookIfExecutable(run.root),
    hookLogDir: path.join(w.dir, 'logs', 'hooks'),
  };
  const body = requestBody({ name, run: run.id, at: new Date(), by: `${currentUser(ctx.env)}@${os.hostname()}`, message: detail.message });
  const effects = [createEffect(file, body)];
  if (detail.hook) {
    const env = Object.entries(hookEnv(detail))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    effects.push(runEffect(`${detail.hook} with ${env} (timeout ${HOOK_TIMEOUT_MS / 1000} s), output to ${detail.hookLogDir}/<time>-${HOOK_NAME.replace(/\.sh$/, '')}.log`));
  }
  return { refusal: null, title, target: name, effects, detail, destructive: true };
}

/** Runs a checkpoint request. */
export async function runRequest(x: Execution, d: RequestDetail): Promise<ActionOutcome> {
  const ctx = x.env.ctx;
  const body = requestBody({ name: d.name, run: x.run.id, at: new Date(), by: `${currentUser(ctx.env)}@${os.hostname()}`, message: d.message });
  if (!(await createExclusive(d.stateDir, d.file, body))) {
    throw new ActionStop('refused', `checkpoint ${d.name} is already pending (${d.file})`);
  }
  const details = [`wrote ${d.file}`];
  if (d.hook) {
    x.progress({ message: `running ${HOOK_NAME}`, elapsedMs: 0, timeoutMs: HOOK_TIMEOUT_MS, waitingFor: d.hook });
    details.push(await runHook(d));
  }
  const warned = details.some((l) => l.startsWith('warning'));
  return { status: 'done', message: `requested checkpoint ${d.name} on ${x.run.id}${warned ? ' (the hook failed: see details)' : ''}`, details };
}

/** Runs the hook and writes its output to `logs/hooks/<time>-on-checkpoint-fired.log`; one line says how it went. */
async function runHook(d: RequestDetail): Promise<string> {
  const hook = d.hook as string;
  const r = await execa(hook, [], {
    cwd: d.root,
    env: hookEnv(d),
    extendEnv: true,
    stdin: 'ignore',
    all: true,
    reject: false,
    timeout: HOOK_TIMEOUT_MS,
  });
  const how = r.timedOut ? `timed out after ${HOOK_TIMEOUT_MS / 1000} s` : r.exitCode === 0 ? 'exited 0' : r.exitCode !== undefined ? `exited ${r.exitCode}` : `failed: ${r.shortMessage}`;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const log = path.join(d.hookLogDir, `${stamp}-${HOOK_NAME.replace(/\.sh$/, '')}.log`);
  let where = `log ${log}`;
  let logged = true;
  try {
    await makeDirInside(d.stateDir, d.hookLogDir);
    await writeAtomic(d.stateDir, log, `# ${hook} ${how}\n${String(r.all ?? '')}`);
  } catch (err) {
    where = `could not write its log: ${(err as Error).message}`;
    logged = false;
  }
  const ok = logged && !r.timedOut && r.exitCode === 0;
  return `${ok ? '' : 'warning: '}hook ${HOOK_NAME} ${how} (${where})`;
}
