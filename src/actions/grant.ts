/**
 * Grant a pending gate, in each system's own way: the harness's `.granted` sentinel (created
 * exclusively), SAGE's `.resume-signal`, dotagent's `user_checkpoints` entry. A second grant, or two
 * at once, gives one write and one refusal.
 */
import path from 'node:path';
import type { AppContext } from '../context.js';
import type { Gate, Run } from '../model.js';
import { CHECKPOINT_NAME } from '../systems/harness/read.js';
import { exists, isObject, mtimeMs, readJsonObject, readText } from '../files/read.js';
import type { GrantDetail } from './detail.js';
import { createEffect, deleteEffect } from './effects.js';
import type { Execution, PlanParts } from './execution.js';
import { ActionStop, refuse } from './execution.js';
import { createExclusive, withLock, writeAtomic } from './files.js';
import { checkpointNameRefusal, linkRefusal, writableStateDir } from './safety.js';
import type { ActionOutcome, ActionRequest, Effect } from './types.js';

const LOCK_NAME = '.tower-grant.lock';
/** SAGE's answer to its human gate that means "go on". */
export const RESUME_APPROVED = 'STATUS: APPROVED\n';

/** The harness sentinel's content. */
export function grantedBody(at: Date): string {
  return `granted at ${at.toISOString()}\n`;
}

function whyNotGrantable(run: Run, gate: Gate): string {
  if (gate.kind === 'context') return `gate "context" of ${run.id} is a checkpoint signal, not a grant: run the checkpoint cycle (tower checkpoint ${run.id})`;
  if (gate.kind === 'escalation') return `gate "${gate.id}" of ${run.id} is an escalation (${gate.title}): it can't be granted, it has to be resolved in the run`;
  return `gate "${gate.id}" of ${run.id} can't be granted`;
}

/** Plans a grant. */
export function planGrant(ctx: AppContext, run: Run, req: ActionRequest): PlanParts {
  const id = req.gate ?? '';
  const title = `Grant ${id} of ${run.id}`;
  const gate = run.gates.find((g) => g.id === id);
  if (!gate) {
    const ids = run.gates.map((g) => `${g.id} (${g.state})`).join(', ');
    return refuse(`${run.id} has no gate "${id}"${ids ? ` (gates: ${ids})` : ' (it has no gates)'}`, title, id);
  }
  if (gate.state === 'granted') return refuse(`gate "${id}" of ${run.id} is already granted`, title, id);
  if (!gate.grantable) return refuse(whyNotGrantable(run, gate), title, id);
  const w = writableStateDir(run);
  if ('refusal' in w) return refuse(w.refusal, title, id);
  const dir = w.dir;
  const now = new Date();
  const base = { kind: 'grant' as const, gate, stateDir: dir };
  let detail: GrantDetail;
  let effects: Effect[];
  switch (run.system) {
    case 'harness': {
      if (!CHECKPOINT_NAME.test(id)) return refuse(`"${id}" is not a checkpoint name (letters, digits, _ . - only)`, title, id);
      const badName = checkpointNameRefusal(id);
      if (badName) return refuse(badName, title, id);
      const pendingFile = path.join(dir, `checkpoint-${id}.md`);
      const file = `${pendingFile}.granted`;
      detail = { ...base, via: 'harness', file, pendingFile, lockFile: null, raisedBy: [] };
      effects = [createEffect(file, grantedBody(now))];
      break;
    }
    case 'sage': {
      const file = path.join(dir, '.resume-signal');
      const lockFile = path.join(dir, LOCK_NAME);
      // As SAGE's reader sees it: the gate is raised by the state file and the last signal.
      const raisedBy = [...(gate.file ? [gate.file] : []), path.join(dir, '.last_signal')];
      detail = { ...base, via: 'sage', file, pendingFile: null, lockFile, raisedBy };
      effects = [createEffect(lockFile, '<pid> <time>\n'), { kind: 'write', text: `write ${file} ${JSON.stringify(RESUME_APPROVED)}` }, deleteEffect(lockFile)];
      break;
    }
    case 'dotagent': {
      const file = path.join(dir, 'phase.json');
      const lockFile = path.join(dir, LOCK_NAME);
      detail = { ...base, via: 'dotagent', file, pendingFile: null, lockFile, raisedBy: [] };
      const entry = JSON.stringify({ phase: id, approved_at: now.toISOString() });
      effects = [
        createEffect(lockFile, '<pid> <time>\n'),
        { kind: 'append', text: `append ${entry} to user_checkpoints in ${file} (temp file + rename, every other field kept)` },
        deleteEffect(lockFile),
      ];
      break;
    }
    default:
      return refuse(`tower can't grant ${run.system} gates`, title, id);
  }
  const linked = linkRefusal(detail.file) ?? (detail.lockFile ? linkRefusal(detail.lockFile) : null);
  if (linked) return refuse(linked, title, id);
  return { refusal: null, title, target: id, effects, detail, destructive: true };
}

/** Runs a grant. */
export async function runGrant(x: Execution, d: GrantDetail): Promise<ActionOutcome> {
  const who = `${d.gate.id} of ${x.run.id}`;
  if (d.via === 'harness') {
    if (!d.pendingFile || !exists(d.pendingFile)) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is not pending (${d.pendingFile ?? 'no file'} is gone)`);
    }
    if (!(await createExclusive(d.stateDir, d.file, grantedBody(new Date())))) {
      throw new ActionStop('refused', `checkpoint ${d.gate.id} is already granted (${d.file} exists)`);
    }
    return { status: 'done', message: `granted ${who}: created ${d.file}` };
  }
  const lockFile = d.lockFile ?? path.join(d.stateDir, LOCK_NAME);
  const held = await withLock(d.stateDir, lockFile, () => (d.via === 'sage' ? grantSage(d) : grantDotagent(d)));
  if (!held) throw new ActionStop('refused', `another grant of ${x.run.id} is in progress (${lockFile} exists; remove it if no grant is running)`);
  return { status: 'done', message: `granted ${who}: ${held.value}` };
}

async function grantSage(d: GrantDetail): Promise<string> {
  // Checked under the lock: an APPROVED answer newer than what raised the gate is a grant already made.
  const answer = readText(d.file);
  const answeredAt = mtimeMs(d.file) ?? 0;
  const raisedAt = Math.max(0, ...d.raisedBy.map((f) => mtimeMs(f) ?? 0));
  if (answer.ok && /^STATUS:\s*APPROVED\b/m.test(answer.value) && answeredAt > raisedAt) {
    throw new ActionStop('refused', `gate hitl is already granted (${d.file} says STATUS: APPROVED)`);
  }
  await writeAtomic(d.stateDir, d.file, RESUME_APPROVED);
  return `wrote ${d.file} (STATUS: APPROVED)`;
}

async function grantDotagent(d: GrantDetail): Promise<string> {
  const text = readText(d.file);
  if (!text.ok) throw new ActionStop('failed', `can't read ${d.file}: ${text.problem.message}`);
  const obj = readJsonObject(d.file);
  if (!obj.ok) throw new ActionStop('failed', `can't grant: ${d.file}: ${obj.problem.message}`);
  const list = obj.value.user_checkpoints ?? [];
  if (!Array.isArray(list)) throw new ActionStop('failed', `can't grant: user_checkpoints in ${d.file} is not a list; the file was left alone`);
  if (list.some((e) => isObject(e) && e.phase === d.gate.id)) {
    throw new ActionStop('refused', `phase ${d.gate.id} is already approved in ${d.file}`);
  }
  const next = { ...obj.value, user_checkpoints: [...list, { phase: d.gate.id, approved_at: new Date().toISOString() }] };
  await writeAtomic(d.stateDir, d.file, formatLike(text.value, next));
  return `appended {phase: ${d.gate.id}} to user_checkpoints in ${d.file}`;
}

/** JSON in the layout of the file it replaces: compact stays compact, an indented file keeps its indent. */
export function formatLike(original: string, value: unknown): string {
  const indent = /^\{\s*\n([ \t]+)"/.exec(original)?.[1];
  const body = indent ? JSON.stringify(value, null, indent) : JSON.stringify(value);
  return original.endsWith('\n') ? `${body}\n` : body;
}
