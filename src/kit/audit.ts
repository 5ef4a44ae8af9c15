/**
 * The audit log: one JSON line per action run, whatever its outcome, in
 * `$XDG_STATE_HOME/tower/audit.jsonl`. Lines are appended with one write each (O_APPEND), so two
 * towers writing at once never interleave within a line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateHome } from '../config/config.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { RuleAnswer } from './detail.js';
import type { ActionOutcome } from './types.js';

/** One line of the audit log. */
export interface AuditEntry {
  /** ISO time the action started. */
  time: string;
  user: string;
  host: string;
  action: string;
  /** The run id (or the query, when it matched no run). */
  run: string;
  target: string | null;
  outcome: ActionOutcome['status'];
  /** Milliseconds from start to outcome. */
  duration: number;
  message: string;
  /** The build box the action ran on, when that is another one (reached over ssh). */
  remote?: string;
  /** An answer a rule gave: the rule, the request, its whole input and the box. */
  rule?: RuleAnswer;
}

/** The audit log's path for an environment. */
export function auditLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateHome(env), 'audit.jsonl');
}

/** The operator's name, as the audit log records it. */
export function currentUser(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return os.userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || 'unknown';
  }
}

/** Appends one entry; resolves to an error message instead of throwing, so the caller can report it. */
export async function appendAudit(entry: AuditEntry, env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const file = auditLogPath(env);
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.promises.appendFile(file, `${JSON.stringify(entry)}\n`, { encoding: 'utf8', mode: 0o600 });
    return null;
  } catch (err) {
    return `could not write the audit log ${file}: ${(err as Error).message}`;
  }
}

/** What an audit line says of an action besides its outcome. */
export interface AuditRecord {
  action: string;
  run: string;
  target: string | null;
  /** The build box it ran on, when that is another one. */
  remote?: string;
  rule?: RuleAnswer;
}

/**
 * Ends an action: makes its outcome safe to print (names and titles come from state files) and,
 * unless it was a dry run, appends its audit line; a line that can't be written is one more detail.
 */
export async function settleOutcome(
  env: NodeJS.ProcessEnv,
  dryRun: boolean,
  rec: AuditRecord,
  startedMs: number,
  outcome: ActionOutcome,
): Promise<ActionOutcome> {
  let out: ActionOutcome = {
    ...outcome,
    message: sanitizeLine(outcome.message),
    ...(outcome.details ? { details: outcome.details.map(sanitizeLine) } : {}),
  };
  if (dryRun) return out;
  const failure = await appendAudit(
    {
      time: new Date(startedMs).toISOString(),
      user: currentUser(env),
      host: os.hostname(),
      action: rec.action,
      run: rec.run,
      target: rec.target,
      outcome: out.status,
      duration: Date.now() - startedMs,
      message: out.message,
      ...(rec.remote !== undefined ? { remote: rec.remote } : {}),
      ...(rec.rule !== undefined ? { rule: rec.rule } : {}),
    },
    env,
  );
  if (failure) out = { ...out, details: [...(out.details ?? []), failure] };
  return out;
}
