/**
 * Running a checkpoint request on a harness run (planned in request.ts), loaded only when one runs:
 * the POST to the operator confirmed by reading its checkpoints again, or the file written and the
 * state dir's hook run with its output logged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { currentUser } from '../../kit/audit.js';
import type { RequestDetail } from '../../kit/detail.js';
import type { Execution } from '../../kit/execution.js';
import { ActionStop } from '../../kit/execution.js';
import { createExclusive, makeDirInside, writeAtomic } from '../../kit/files.js';
import type { ActionOutcome } from '../../kit/types.js';
import { answerError, boundedRequest, OPERATOR_TIMEOUT_MS, refreshCheckpoints } from './operator.js';
import { HOOK_NAME, HOOK_TIMEOUT_MS, hookEnv, hookLogFile, requestBody } from './request.js';

/** Runs a checkpoint request. */
export async function runRequest(x: Execution, d: RequestDetail): Promise<ActionOutcome> {
  if (d.url) return requestThroughOperator(x, d, d.url);
  const ctx = x.env.ctx;
  const body = requestBody({
    name: d.name,
    run: x.run.id,
    at: new Date(),
    by: `${currentUser(ctx.env)}@${os.hostname()}`,
    message: d.message,
  });
  if (!(await createExclusive(d.stateDir, d.file, body))) {
    throw new ActionStop('refused', `checkpoint ${d.name} is already pending (${d.file})`);
  }
  const details = [`wrote ${d.file}`];
  if (d.hook) {
    x.progress({ message: `running ${HOOK_NAME}`, elapsedMs: 0, timeoutMs: HOOK_TIMEOUT_MS, waitingFor: d.hook });
    details.push(await runHook(d, ctx.env));
  }
  const warned = details.some((l) => l.startsWith('warning'));
  return {
    status: 'done',
    message: `requested checkpoint ${d.name} on ${x.run.id}${warned ? ' (the hook failed: see details)' : ''}`,
    details,
  };
}

/**
 * Runs the hook and writes its output to `logs/hooks/<epoch-seconds>-on-checkpoint-fired.log`; one line says
 * how it went.
 */
async function runHook(d: RequestDetail, towerEnv: NodeJS.ProcessEnv): Promise<string> {
  const hook = d.hook as string;
  // execa is loaded here only: the system registry (and with it this module) is on every start path.
  const { execa } = await import('execa');
  const startedAt = Date.now();
  const r = await execa(hook, [], {
    cwd: d.root,
    // Tower's own environment (not the process's: tests and remote runs pass their own), plus the hook's variables.
    env: { ...towerEnv, ...hookEnv(d, towerEnv) },
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    // The log keeps the output byte for byte, final newline included.
    stripFinalNewline: false,
    reject: false,
    timeout: HOOK_TIMEOUT_MS,
  });
  const how = r.timedOut
    ? `timed out after ${HOOK_TIMEOUT_MS / 1000} s`
    : r.exitCode === 0
      ? 'exited 0'
      : r.exitCode !== undefined
        ? `exited ${r.exitCode}`
        : `failed: ${r.shortMessage}`;
  const log = hookLogFile(d.hookLogDir, startedAt);
  let where = `log ${log}`;
  let logged = true;
  try {
    await makeDirInside(d.stateDir, d.hookLogDir);
    // The log holds the hook's output only (stdout and stderr together), as the harness writes it.
    // Two requests within one second share the name: the second appends rather than erase the first.
    const earlier = fs.existsSync(log) ? await fs.promises.readFile(log, 'utf8') : '';
    await writeAtomic(d.stateDir, log, earlier + String(r.all ?? ''));
  } catch (err) {
    where = `could not write its log: ${(err as Error).message}`;
    logged = false;
  }
  const ok = logged && !r.timedOut && r.exitCode === 0;
  return `${ok ? '' : 'warning: '}hook ${HOOK_NAME} ${how} (${where})`;
}

/** POSTs the request to the operator, then reads the checkpoints again: requested only when it lists it. */
async function requestThroughOperator(x: Execution, d: RequestDetail, url: string): Promise<ActionOutcome> {
  x.progress({ message: `POST ${url}`, elapsedMs: 0, timeoutMs: OPERATOR_TIMEOUT_MS, waitingFor: 'the operator' });
  const a = await boundedRequest(url, { method: 'POST', body: JSON.stringify({ message: d.message }) });
  if (!a.ok) throw new ActionStop('refused', `POST ${url} got no answer (${a.message}); no checkpoint was requested`);
  if (a.status === 409)
    throw new ActionStop(
      'refused',
      `checkpoint ${d.name} is already pending (the operator answered 409: ${answerError(a.text)})`,
    );
  if (a.status < 200 || a.status > 299)
    throw new ActionStop(
      'refused',
      `POST ${url} answered HTTP ${a.status}: ${answerError(a.text)}; no checkpoint was requested`,
    );
  const i = url.indexOf('/api/harness/');
  const after = await refreshCheckpoints(url.slice(0, i), path.basename(d.root));
  const listed = after.kind === 'ok' && after.checkpoints.some((c) => c.name === d.name);
  if (!listed) {
    const why =
      after.kind === 'error'
        ? `the checkpoints could not be read again (${after.message})`
        : `the operator does not list ${d.name}`;
    return {
      status: 'failed',
      message: `POST ${url} answered HTTP ${a.status}, but ${why}: not confirmed`,
      details: [`POST ${url} -> HTTP ${a.status}`],
    };
  }
  return {
    status: 'done',
    message: `requested checkpoint ${d.name} on ${x.run.id} through the operator`,
    details: [`POST ${url} -> HTTP ${a.status}`, `the operator lists ${d.name}`],
  };
}
