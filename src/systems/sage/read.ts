/**
 * SAGE (seed 002): `.sage/state/` in a project. The most recently updated state file is the run;
 * a human-in-the-loop pause (`next_action.type: hitl` or a HITL_REQUIRED signal) is its gate,
 * answered by `.resume-signal` holding `STATUS: APPROVED`.
 */
import path from 'node:path';
import { emptyRun } from '../../model.js';
import type { Gate, Problem, Run, RunStatus, Task } from '../../model.js';
import { sanitize, sanitizeLine } from '../../text.js';
import { exists, isDir, listDir, mtimeMs, readText } from '../../files/read.js';
import { parseSageStateText } from './state.js';
import type { SageState } from './state.js';
import { parseLastSignal, parseResumeSignal } from './signals.js';
import type { ResumeStatus, SageSignal } from './signals.js';
import type { ReadSettings } from '../types.js';

export { parseSageSignals, parseLastSignal, parseResumeSignal } from './signals.js';
export type { SageSignal, ResumeStatus } from './signals.js';
export { parseSageState, parseSageStateText, sageShapeOf } from './state.js';
export type { SageState, SageShape } from './state.js';

/** Signal files are a line or a few; anything bigger is not one. */
const MAX_SIGNAL_BYTES = 64 * 1024;

/** A state file that parsed, with where and when it was written. */
interface StateFile {
  file: string;
  mtimeMs: number;
  state: SageState;
}

/** The signal files next to the state. */
interface Signals {
  last: { signal: SageSignal; file: string; mtimeMs: number } | null;
  context: string | null;
  pendingCheckpoint: string | null;
  resume: { status: ResumeStatus; mtimeMs: number } | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Reads one SAGE project (no SAGE rule depends on the clock, so settings go unused). */
export function readSageRun(root: string, stateDir: string, _settings: ReadSettings): Run {
  const problems: Problem[] = [];
  const present = isDir(stateDir);
  if (!present) problems.push({ file: stateDir, message: 'state directory is missing' });
  const files = present ? readStateFiles(stateDir, problems) : [];
  // The newest state wins: its own "updated" stamp when it has one, else the file's mtime.
  const latest = files.reduce<StateFile | null>((best, f) => (best === null || stamp(f) > stamp(best) ? f : best), null);
  const signals = readSignals(stateDir, problems);

  const name = latest?.state.epicId ?? (sanitizeLine(path.basename(root)) || 'sage');
  const run = emptyRun('sage', name, root, stateDir);
  run.problems = problems;
  const gate = hitlGate(latest, signals);
  run.gates = gate ? [gate] : [];
  if (signals.pendingCheckpoint !== null && !gate) run.warnings?.push(`checkpoint pending: ${signals.pendingCheckpoint}`);
  if (latest) {
    const s = latest.state;
    run.phase = s.phase !== null ? { current: s.phase, total: null, status: s.status ?? 'unknown' } : null;
    run.tasks = sageTasks(s, gate?.state === 'pending');
  }
  run.status = sageStatus(latest?.state ?? null, gate, signals.last?.signal ?? null, problems.length > 0);
  return run;
}

function stamp(f: StateFile): number {
  return f.state.updatedMs ?? f.mtimeMs;
}

/** The run status (first match wins): blocked, waiting, complete, running; idle/unknown without state. */
export function sageStatus(state: SageState | null, gate: Gate | null, last: SageSignal | null, hasProblems: boolean): RunStatus {
  if (state?.status?.toLowerCase() === 'blocked' || last?.type === 'FATAL_ERROR') return 'blocked';
  if (gate?.state === 'pending') return 'waiting';
  if (state?.nextAction?.type === 'complete' || state?.allStoriesDone || last?.type === 'EPIC_COMPLETE') return 'complete';
  if (state) return 'running';
  return hasProblems ? 'unknown' : 'idle';
}

function readStateFiles(stateDir: string, problems: Problem[]): StateFile[] {
  const out: StateFile[] = [];
  for (const entry of listDir(stateDir)) {
    if (entry.startsWith('.') || !entry.endsWith('.json')) continue;
    const file = path.join(stateDir, entry);
    const raw = readText(file);
    if (!raw.ok) {
      problems.push({ file: sanitizeLine(file), message: sanitizeLine(raw.problem.message) });
      continue;
    }
    const parsed = parseSageStateText(raw.value, file);
    problems.push(...parsed.problems);
    if (parsed.value) out.push({ file, mtimeMs: mtimeMs(file) ?? 0, state: parsed.value });
  }
  return out;
}

function readSignalFile(file: string, problems: Problem[]): string | null {
  if (!exists(file)) return null;
  const raw = readText(file, MAX_SIGNAL_BYTES);
  if (!raw.ok) {
    problems.push({ file: sanitizeLine(file), message: sanitizeLine(raw.problem.message) });
    return null;
  }
  return raw.value;
}

function readSignals(stateDir: string, problems: Problem[]): Signals {
  const signals: Signals = { last: null, context: null, pendingCheckpoint: null, resume: null };
  const lastFile = path.join(stateDir, '.last_signal');
  const last = readSignalFile(lastFile, problems);
  if (last !== null) {
    const parsed = parseLastSignal(last, lastFile);
    problems.push(...parsed.problems);
    if (parsed.value) signals.last = { signal: parsed.value, file: lastFile, mtimeMs: mtimeMs(lastFile) ?? 0 };
  }
  const context = readSignalFile(path.join(stateDir, '.last_signal_context'), problems);
  if (context !== null && context.trim() !== '') signals.context = sanitize(context).trim();
  const pending = readSignalFile(path.join(stateDir, '.pending_checkpoint'), problems);
  if (pending !== null && pending.trim() !== '') signals.pendingCheckpoint = sanitizeLine(pending.trim().split('\n')[0] ?? '');
  const resumeFile = path.join(stateDir, '.resume-signal');
  const resume = readSignalFile(resumeFile, problems);
  if (resume !== null) {
    const parsed = parseResumeSignal(resume, resumeFile);
    problems.push(...parsed.problems);
    if (parsed.value) signals.resume = { status: parsed.value, mtimeMs: mtimeMs(resumeFile) ?? 0 };
  }
  return signals;
}

function describeSignal(s: SageSignal): string {
  const head = `SAGE_SIGNAL:${s.type}${s.payload !== null ? `:${s.payload}` : ''}`;
  const fields = Object.entries(s.fields).map(([k, v]) => `${k}: ${v}`);
  return [head, ...fields].join('\n');
}

/** The human gate, when the state or the last signal asks for one. */
function hitlGate(latest: StateFile | null, signals: Signals): Gate | null {
  const byState = latest?.state.nextAction?.type === 'hitl';
  const bySignal = signals.last?.signal.type === 'HITL_REQUIRED';
  if (!byState && !bySignal) return null;
  // What the answer must be newer than: the files that raised the gate.
  const raisedAt = Math.max(byState && latest ? latest.mtimeMs : 0, bySignal && signals.last ? signals.last.mtimeMs : 0);
  const resume = signals.resume;
  const granted = resume?.status === 'APPROVED' && resume.mtimeMs > raisedAt;

  const body: string[] = [];
  const description = byState ? (latest?.state.nextAction?.description ?? null) : null;
  if (description) body.push(description);
  if (signals.last) body.push(describeSignal(signals.last.signal));
  if (signals.context) body.push(signals.context);
  if (signals.pendingCheckpoint) body.push(`Pending checkpoint: ${signals.pendingCheckpoint}`);
  if (resume && !granted) body.push(`Last answer in .resume-signal: STATUS: ${resume.status}${resume.mtimeMs > raisedAt ? '' : ' (older than this gate)'}`);

  const since = byState && latest ? iso(latest.state.updatedMs ?? latest.mtimeMs) : iso(signals.last?.mtimeMs ?? null);
  return {
    id: 'hitl',
    kind: 'approval',
    state: granted ? 'granted' : 'pending',
    since,
    grantable: !granted,
    title: description ?? 'Human review required',
    file: latest?.file ?? signals.last?.file ?? null,
    body: body.join('\n\n'),
  };
}

/** The current task and the finished stories, as much as the state says. */
function sageTasks(s: SageState, awaitingHuman: boolean): Task[] {
  const tasks: Task[] = [];
  if (s.current) {
    const c = s.current;
    const what = c.step ?? s.phase ?? 'current task';
    const of = c.taskIndex !== null ? ` (task ${c.taskIndex}${c.taskTotal !== null ? `/${c.taskTotal}` : ''})` : '';
    tasks.push({
      id: c.taskIndex !== null ? `${c.storyId}#${c.taskIndex}` : c.storyId,
      subject: `${what}${of}`,
      status: awaitingHuman ? 'awaiting approval' : (s.status ?? 'in_progress'),
      owner: null,
      blockedBy: [],
    });
  }
  const seen = new Set(tasks.map((t) => t.id));
  for (const story of s.completed) {
    if (seen.has(story.storyId)) continue;
    seen.add(story.storyId);
    tasks.push({ id: story.storyId, subject: `story ${story.storyId}`, status: story.status, owner: null, blockedBy: [] });
  }
  return tasks;
}
