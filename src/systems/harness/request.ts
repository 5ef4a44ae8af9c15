/**
 * Request a named checkpoint on a harness run. Under its operator (named in tower's environment and
 * knowing the project): `POST <base>/api/harness/<slug>/checkpoint/<name>/request` with
 * `{"message"}`, confirmed by reading the checkpoints again. Standalone, as the harness API does for
 * an operator: write `checkpoint-<name>.md` (refused while one is pending), then run the state dir's
 * `hooks/on-checkpoint-fired.sh` when it is there and executable, the way the harness runs its
 * hooks (Papercusp/papercusp-app 96a6ba7, libs/papercusp/packages/orchestrator/src/hooks.ts): cwd
 * the project, its env plus HARNESS_SLUG, WORKSPACE_ID and OPERATOR_BASE, output to
 * `<stateDir>/logs/hooks/<epoch-seconds>-on-checkpoint-fired.log`. A failing hook is a warning, not
 * a failure. A manual request writes no `.fired` marker: that marks automatic triggers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context/context.js';
import type { Run } from '../../model/model.js';
import { exists } from '../../files/look.js';
import { currentUser } from '../../kit/audit.js';
import type { RequestDetail } from '../../kit/detail.js';
import { createEffect, runEffect } from '../../kit/effects.js';
import type { PlanParts } from '../../kit/execution.js';
import { refuse } from '../../kit/execution.js';
import { checkpointNameRefusal, linkRefusal, writableStateDir } from '../../kit/safety.js';
import type { ActionRequest } from '../../kit/types.js';
import { CHECKPOINT_NAME } from './read.js';
import { httpEffect } from '../../kit/effects.js';
import { harnessSlug, operatorFor } from './grant.js';
import {
  checkpointActionUrl,
  DEFAULT_OPERATOR_BASE,
  lastAnswer,
  operatorBaseFrom,
  OPERATOR_TIMEOUT_MS,
} from './operator.js';
import { readText } from '../../files/read.js';

/** The harness hook run when a checkpoint is created (in `<stateDir>/hooks/`, where the harness keeps its hooks). */
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

/** The hook in the state dir when it is a regular file with an execute bit (the harness's own test). */
export function hookIfExecutable(stateDir: string): string | null {
  const hook = path.join(stateDir, 'hooks', HOOK_NAME);
  try {
    const st = fs.statSync(hook);
    return st.isFile() && (st.mode & 0o111) !== 0 ? hook : null;
  } catch {
    return null;
  }
}

/**
 * The active Papercusp workspace, as the orchestrator resolves it (orchestrator/src/workspace.ts
 * activeWorkspaceId): `PAPERCUSP_WORKSPACE_ID`, else `current` of
 * `<PAPERCUSP_WORKSPACES_ROOT or ~/.papercusp-workspaces>/registry.json`, else `default`.
 */
export function activeWorkspaceId(env: NodeJS.ProcessEnv): string {
  const fromEnv = (env.PAPERCUSP_WORKSPACE_ID ?? '').trim();
  if (fromEnv !== '') return fromEnv;
  const root =
    (env.PAPERCUSP_WORKSPACES_ROOT ?? '').trim() || path.join(env.HOME || os.homedir(), '.papercusp-workspaces');
  const raw = readText(path.join(root, 'registry.json'), 64 * 1024);
  if (raw.ok) {
    try {
      const v = JSON.parse(raw.value) as { current?: unknown };
      if (typeof v.current === 'string' && v.current.trim() !== '') return v.current.trim();
    } catch {
      // a malformed registry: the default, as the orchestrator does
    }
  }
  return 'default';
}

/**
 * The variables the hook gets on top of tower's environment, as the harness sets them: HARNESS_SLUG,
 * WORKSPACE_ID and OPERATOR_BASE always (hooks.ts: the operator named in the environment, else
 * http://localhost:3070).
 */
export function hookEnv(d: RequestDetail, towerEnv: NodeJS.ProcessEnv): Record<string, string> {
  return {
    CHECKPOINT_NAME: d.name,
    TRIGGER: 'manual',
    PROJECT_DIR: d.root,
    STATE_DIR: d.stateDir,
    // The harness's slug is the project directory's name.
    HARNESS_SLUG: path.basename(d.root),
    WORKSPACE_ID: activeWorkspaceId(towerEnv),
    OPERATOR_BASE: operatorBaseFrom(towerEnv).base ?? DEFAULT_OPERATOR_BASE,
  };
}

/** The hook's log file for a run starting at `atMs`: `<epoch-seconds>-on-checkpoint-fired.log`. */
export function hookLogFile(logDir: string, atMs: number): string {
  return path.join(logDir, `${Math.floor(atMs / 1000)}-${HOOK_NAME.replace(/\.sh$/, '')}.log`);
}

/** What a checkpoint request names and where it goes. */
interface RequestPlace {
  name: string;
  title: string;
  stateDir: string;
  root: string;
  file: string;
  message: string;
}

/** Plans a checkpoint request the harness's operator takes (it says which are pending already). */
function throughOperator(p: RequestPlace, base: string, slug: string): PlanParts {
  const { name, title, message } = p;
  const known = lastAnswer(base, slug);
  const listed = known?.kind === 'ok' ? known.checkpoints.find((c) => c.name === name) : undefined;
  if (listed)
    return refuse(
      `checkpoint ${name} is already ${listed.granted ? 'granted and not consumed yet' : 'pending'} ` +
        `(the operator says so)`,
      title,
      name,
    );
  const url = checkpointActionUrl(base, slug, name, 'request');
  const detail: RequestDetail = {
    kind: 'request',
    name,
    stateDir: p.stateDir,
    root: p.root,
    file: p.file,
    message,
    hook: null,
    hookLogDir: path.join(p.stateDir, 'logs', 'hooks'),
    url,
  };
  const effects = [
    httpEffect(
      'POST',
      url,
      JSON.stringify({ message }),
      `(timeout ${OPERATOR_TIMEOUT_MS / 1000} s; then the checkpoints are read again from the operator)`,
    ),
  ];
  return { refusal: null, title, target: name, effects, detail, destructive: true };
}

/** Plans a checkpoint request. */
export function planRequest(ctx: AppContext, run: Run, req: ActionRequest, title: string): PlanParts {
  const name = req.name ?? '';
  if (!CHECKPOINT_NAME.test(name))
    return refuse(`bad checkpoint name "${name}": use letters, digits, _ . - only`, title, name);
  const badName = checkpointNameRefusal(name);
  if (badName) return refuse(badName, title, name);
  const w = writableStateDir(run);
  if ('refusal' in w) return refuse(w.refusal, title, name);
  if (!run.root) return refuse(`${run.id} has no project root`, title, name);
  const file = path.join(w.dir, `checkpoint-${name}.md`);
  const slug = harnessSlug(run, w.dir);
  const base = operatorFor(ctx.env, slug);
  const where = { name, title, stateDir: w.dir, root: run.root, file, message: req.message ?? '' };
  if (base !== null) return throughOperator(where, base, slug);
  const linked = linkRefusal(file) ?? linkRefusal(`${file}.granted`);
  if (linked) return refuse(linked, title, name);
  if (exists(file)) {
    return refuse(
      exists(`${file}.granted`)
        ? `checkpoint ${name} was granted but the harness has not consumed it yet (${file}.granted); ` +
            `re-run the harness first`
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
    hook: hookIfExecutable(w.dir),
    hookLogDir: path.join(w.dir, 'logs', 'hooks'),
  };
  const body = requestBody({
    name,
    run: run.id,
    at: new Date(),
    by: `${currentUser(ctx.env)}@${os.hostname()}`,
    message: detail.message,
  });
  const effects = [createEffect(file, body)];
  if (detail.hook) {
    const env = Object.entries(hookEnv(detail, ctx.env))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    effects.push(
      runEffect(
        `${detail.hook} in ${detail.root} with ${env} (timeout ${HOOK_TIMEOUT_MS / 1000} s), output ` +
          `to ${detail.hookLogDir}/<epoch-seconds>-${HOOK_NAME.replace(/\.sh$/, '')}.log`,
      ),
    );
  }
  return { refusal: null, title, target: name, effects, detail, destructive: true };
}
