/**
 * The audit log: per action run, a `begun` line before it acts and one line with its outcome, in
 * `$XDG_STATE_HOME/tower/audit.jsonl`. Lines are appended with one write each (O_APPEND), so two
 * towers writing at once never interleave within a line, and a tower killed mid-action leaves a
 * whole `begun` line that the next start marks `interrupted` (never done). An action whose `begun`
 * line cannot be written is refused: nothing is done unaudited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateHome } from '../config/config.js';
import { randomHex } from '../text/random.js';
import { sanitizeLine } from '../text/sanitize.js';
import { pidAlive } from './process-tree.js';
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
  /** `begun` before it acts, then how it ended; `interrupted` when tower ended in between. */
  outcome: ActionOutcome['status'] | 'begun' | 'interrupted';
  /** Milliseconds from start to outcome. */
  duration: number;
  message: string;
  /** What was approved, whole (an answer through the hook: the request, its hash, its every field). */
  approved?: string[];
  /** The build box the action ran on, when that is another one (reached over ssh). */
  remote?: string;
  /** Ties an action's lines together (its `begun` line and its outcome). */
  id?: string;
  /** The tower process that ran it (on `begun` lines: whether it still runs tells interrupted). */
  pid?: number;
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

/** The start of an action: its id, or why its `begun` line could not be written (it must not act). */
export async function beginAudit(
  env: NodeJS.ProcessEnv,
  rec: AuditRecord,
  startedMs: number,
  title: string,
): Promise<{ id: string; failure: null } | { id: null; failure: string }> {
  const id = randomHex(8);
  const failure = await appendAudit(
    { ...entryOf(env, rec, startedMs, 'begun', sanitizeLine(title)), duration: 0, id, pid: process.pid },
    env,
  );
  return failure === null ? { id, failure: null } : { id: null, failure };
}

function entryOf(
  env: NodeJS.ProcessEnv,
  rec: AuditRecord,
  startedMs: number,
  outcome: AuditEntry['outcome'],
  message: string,
): AuditEntry {
  return {
    time: new Date(startedMs).toISOString(),
    user: currentUser(env),
    host: os.hostname(),
    action: rec.action,
    run: rec.run,
    target: rec.target,
    outcome,
    duration: Date.now() - startedMs,
    message,
    ...(rec.remote !== undefined ? { remote: rec.remote } : {}),
    ...(rec.rule !== undefined ? { rule: rec.rule } : {}),
  };
}

/** At most this much of the log's end is read for actions left begun (a log grows for years). */
const TAIL_BYTES = 1 << 20;

/** The last `TAIL_BYTES` of the log, from its first whole line; '' when there is none. */
async function logTail(file: string): Promise<string> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await handle.close();
  }
}

/** A `begun` line's fields, or null for anything else (the log is a file anyone could edit). */
function begunOf(line: string): (AuditEntry & { id: string; pid: number }) | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const e = v as Partial<AuditEntry>;
  if (e.outcome !== 'begun' || typeof e.id !== 'string' || typeof e.pid !== 'number') return null;
  if (typeof e.action !== 'string' || typeof e.run !== 'string' || typeof e.time !== 'string') return null;
  return e as AuditEntry & { id: string; pid: number };
}

/** The id of any line, or null. */
function idOf(line: string): string | null {
  const m = /"id":"([0-9a-f]+)"/.exec(line);
  return m ? (m[1] ?? null) : null;
}

/** The log's `begun` lines and the ids of the actions that have a later line (ended or marked). */
async function logState(
  file: string,
): Promise<{ begun: (AuditEntry & { id: string; pid: number })[]; ended: Set<string> }> {
  const ended = new Set<string>();
  const begun: (AuditEntry & { id: string; pid: number })[] = [];
  for (const line of (await logTail(file)).split('\n')) {
    const b = begunOf(line);
    if (b) begun.push(b);
    else {
      const id = idOf(line);
      if (id) ended.add(id);
    }
  }
  return { begun, ended };
}

/**
 * Actions this box's towers began and never ended (the tower is gone: killed, crashed, the box
 * rebooted): each gets an `interrupted` line, once, and is returned so the caller can say so.
 */
export async function markInterrupted(env: NodeJS.ProcessEnv = process.env): Promise<AuditEntry[]> {
  const host = os.hostname();
  const first = await logState(auditLogPath(env));
  const gone = first.begun.filter(
    (b) => !first.ended.has(b.id) && b.host === host && b.pid !== process.pid && !pidAlive(b.pid),
  );
  if (gone.length === 0) return [];
  // Read again now that those towers are known to be gone: one that wrote its outcome and exited
  // between the first read and the pid check ended its action (seen with six towers at once).
  const { ended } = await logState(auditLogPath(env));
  const left = gone.filter((b) => !ended.has(b.id));
  const marked: AuditEntry[] = [];
  for (const b of left) {
    const entry: AuditEntry = {
      ...b,
      outcome: 'interrupted',
      duration: Math.max(0, Date.now() - Date.parse(b.time)),
      message: sanitizeLine(
        `tower (pid ${b.pid}) ended before this action did: it may be half done; look at the run ` +
          `before acting again (${b.message})`,
      ),
    };
    delete entry.pid;
    if ((await appendAudit(entry, env)) === null) marked.push(entry);
  }
  return marked;
}

/** One line for an interrupted action, as the command line and the activity pane say it. */
export function interruptedLine(e: AuditEntry): string {
  return (
    `${e.action} ${e.run}${e.target ? ` (${e.target})` : ''} begun at ${e.time} was interrupted: ` +
    `tower ended before it did; it may be half done`
  );
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
  id?: string | null,
): Promise<ActionOutcome> {
  let out: ActionOutcome = {
    ...outcome,
    message: sanitizeLine(outcome.message),
    ...(outcome.details ? { details: outcome.details.map(sanitizeLine) } : {}),
    ...(outcome.approved ? { approved: outcome.approved.map(sanitizeLine) } : {}),
  };
  if (dryRun) return out;
  const failure = await appendAudit(
    {
      ...entryOf(env, rec, startedMs, out.status, out.message),
      ...(out.approved ? { approved: out.approved } : {}),
      ...(id ? { id } : {}),
    },
    env,
  );
  if (failure) out = { ...out, details: [...(out.details ?? []), failure] };
  return out;
}
