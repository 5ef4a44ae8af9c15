/**
 * The harness's grant. Standalone: the `.granted` sentinel next to the pending checkpoint, created
 * exclusively. Under its operator (named in tower's environment, and knowing the project):
 * `POST <base>/api/harness/<slug>/checkpoint/<name>/grant`, the operator's own grant, since the
 * harness then reads `harness_shared.harness_checkpoints` and never the sentinel; the grant counts
 * only once the operator lists the checkpoint as granted.
 */
import path from 'node:path';
import { createEffect, httpEffect } from '../../kit/effects.js';
import { ActionStop } from '../../kit/execution.js';
import { createExclusive } from '../../kit/files.js';
import { checkpointNameRefusal } from '../../kit/safety.js';
import type { GrantDetail } from '../../kit/detail.js';
import { exists, isDir } from '../../files/look.js';
import type { Run } from '../../model/model.js';
import type { GrantWay } from '../module.js';
import { CHECKPOINT_NAME } from './files.js';
import {
  answerError,
  boundedRequest,
  checkpointActionUrl,
  lastAnswer,
  operatorBaseFrom,
  OPERATOR_TIMEOUT_MS,
  refreshCheckpoints,
  sameSlugRoot,
  DEFAULT_OPERATOR_BASE,
} from './operator.js';

/** The harness sentinel's content. */
export function grantedBody(at: Date): string {
  return `granted at ${at.toISOString()}\n`;
}

/** The slug the operator knows a project by: its directory's name (orchestrator/src/hooks.ts). */
export function harnessSlug(run: Run, stateDir: string): string {
  return path.basename(run.root ?? path.dirname(stateDir));
}

/**
 * The operator base a harness run goes through, or null for its files: an operator is named in
 * tower's environment and did not say it does not know the project.
 */
export function operatorFor(env: NodeJS.ProcessEnv, slug: string): string | null {
  const { base } = operatorBaseFrom(env);
  // Nothing named: the orchestrator's default base, when it answered for this project.
  if (base === null) return lastAnswer(DEFAULT_OPERATOR_BASE, slug)?.kind === 'ok' ? DEFAULT_OPERATOR_BASE : null;
  return lastAnswer(base, slug)?.kind === 'unknown-project' ? null : base;
}

export const harnessGrant: GrantWay = {
  plan(run, gate, dir, now, env) {
    if (!CHECKPOINT_NAME.test(gate.id))
      return { refusal: `"${gate.id}" is not a checkpoint name (letters, digits, _ . - only)` };
    const badName = checkpointNameRefusal(gate.id);
    if (badName) return { refusal: badName };
    const pendingFile = path.join(dir, `checkpoint-${gate.id}.md`);
    const base = operatorFor(env, harnessSlug(run, dir));
    const twin =
      base !== null && run.root !== null
        ? sameSlugRoot(base, harnessSlug(run, dir), run.root, now.getTime(), isDir)
        : null;
    if (twin)
      return {
        refusal:
          `${twin} has the same folder name "${harnessSlug(run, dir)}": the operator knows a ` +
          `project by that name alone, so a grant could reach the other one; refused until the ` +
          `operator's workspace tells them apart`,
      };
    if (base !== null) {
      const url = checkpointActionUrl(base, harnessSlug(run, dir), gate.id, 'grant');
      return {
        detail: { file: url, url, pendingFile: null, lockFile: null, raisedBy: [] },
        effects: [
          httpEffect(
            'POST',
            url,
            null,
            `(timeout ${OPERATOR_TIMEOUT_MS / 1000} s; then the checkpoints are read again from the operator)`,
          ),
        ],
      };
    }
    const file = `${pendingFile}.granted`;
    return {
      detail: { file, pendingFile, lockFile: null, raisedBy: [] },
      effects: [createEffect(file, grantedBody(now))],
    };
  },
  async run(d) {
    if (d.url) return grantThroughOperator(d, d.url);
    if (!d.pendingFile || !exists(d.pendingFile)) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is not pending (${d.pendingFile ?? 'no file'} is gone)`);
    }
    if (!(await createExclusive(d.stateDir, d.file, grantedBody(new Date())))) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is already granted (${d.file} exists)`);
    }
    return `created ${d.file}`;
  },
};

/** The base and slug of an operator endpoint URL tower built (`<base>/api/harness/<slug>/…`). */
function baseAndSlug(url: string): { base: string; slug: string } {
  const i = url.indexOf('/api/harness/');
  const rest = url.slice(i + '/api/harness/'.length);
  return { base: url.slice(0, i), slug: decodeURIComponent(rest.slice(0, rest.indexOf('/'))) };
}

/** Reads the operator's checkpoints now; an operator that does not answer is a refusal. */
async function operatorCheckpoints(base: string, slug: string, doing: string): Promise<Map<string, boolean>> {
  const read = await refreshCheckpoints(base, slug);
  if (read.kind === 'unknown-project')
    throw new ActionStop('refused', `the operator at ${base} does not know project ${slug}; nothing was ${doing}`);
  if (read.kind === 'error')
    throw new ActionStop(
      'refused',
      `the operator's API did not answer (${read.url}: ${read.message}); nothing was ${doing}`,
    );
  return new Map(read.checkpoints.map((c) => [c.name, c.granted]));
}

/** POSTs the grant, then reads the checkpoints again: granted only when the operator says so. */
async function grantThroughOperator(d: GrantDetail, url: string): Promise<string> {
  const { base, slug } = baseAndSlug(url);
  const name = d.gate.id;
  const before = await operatorCheckpoints(base, slug, 'granted');
  if (!before.has(name)) throw new ActionStop('refused', `checkpoint ${name} is not pending at the operator (${base})`);
  if (before.get(name) === true)
    throw new ActionStop('refused', `checkpoint ${name} is already granted (the operator says so)`);
  const a = await boundedRequest(url, { method: 'POST' });
  if (!a.ok && a.timedOut) return afterTimeout(base, slug, name, url, a.message);
  if (!a.ok) throw new ActionStop('refused', `POST ${url} got no answer (${a.message}); the checkpoint is not granted`);
  if (a.status < 200 || a.status > 299)
    throw new ActionStop(
      'refused',
      `POST ${url} answered HTTP ${a.status}: ${answerError(a.text)}; the checkpoint is not granted`,
    );
  const after = await refreshCheckpoints(base, slug);
  if (after.kind !== 'ok') {
    throw new ActionStop(
      'failed',
      `POST ${url} answered HTTP ${a.status}, but the checkpoints could not be read again ` +
        `(${after.kind === 'error' ? after.message : 'unknown project'}): not confirmed`,
    );
  }
  const now = after.checkpoints.find((c) => c.name === name);
  if (!now?.granted) {
    throw new ActionStop(
      'failed',
      `POST ${url} answered HTTP ${a.status}, but the operator still lists ${name} as ` +
        `${now ? 'pending' : 'absent'}: not granted`,
    );
  }
  return `POST ${url} (HTTP ${a.status}); the operator lists ${name} as granted`;
}

/**
 * A grant POST that got no answer in time may still have landed: the list is read again and says
 * which. Granted there: done. Otherwise "not confirmed", never "not granted": it may land yet.
 */
async function afterTimeout(base: string, slug: string, name: string, url: string, why: string): Promise<string> {
  const after = await refreshCheckpoints(base, slug);
  const listed = after.kind === 'ok' ? after.checkpoints.find((c) => c.name === name) : undefined;
  if (listed?.granted) return `POST ${url} got ${why}, but the operator now lists ${name} as granted`;
  const seen =
    after.kind === 'ok'
      ? `the operator still lists ${name} as ${listed ? 'pending' : 'absent'}`
      : `the checkpoints could not be read again (${after.kind === 'error' ? after.message : 'unknown project'})`;
  throw new ActionStop(
    'failed',
    `POST ${url} got ${why} and ${seen}: not confirmed (the grant may still land; look again before granting again)`,
  );
}
