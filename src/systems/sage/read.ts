/**
 * SAGE (seed 002): `.sage/state/` in a project. The most recently updated state file is the run;
 * a human-in-the-loop pause (`next_action.type: hitl` or a HITL_REQUIRED signal) is its gate,
 * answered by `.resume-signal` (`STATUS: APPROVED` or the webhook's JSON), which the orchestrator
 * deletes once read, logging the answer in `.sage/logs/orchestrator-v2.log` (gate.ts).
 */
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Gate, Problem, Run, RunStatus, Task } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { isDir, listDir, mtimeMs } from '../../files/look.js';
import { cleanProblem, parseJson, readText } from '../../files/read.js';
import { hitlGate, readSignals } from './gate.js';
import { parseSageSession, parseSageState } from './state.js';
import type { SageSession, SageState } from './state.js';
import type { SageSignal } from './signals.js';
import type { ReadSettings } from '../types.js';

export { parseSageSignals, parseLastSignal, parseResumeSignal } from './signals.js';
export type { SageSignal, ResumeStatus } from './signals.js';
export { parseSageSession, parseSageState, parseSageStateText, sageShapeOf } from './state.js';
export type { SageSession, SageState, SageShape } from './state.js';

/** A state file that parsed, with where and when it was written. */
interface StateFile {
  file: string;
  mtimeMs: number;
  state: SageState;
}

/** Reads one SAGE project (no SAGE rule depends on the clock, so settings go unused). */
export function readSageRun(root: string, stateDir: string, _settings: ReadSettings): Run {
  const problems: Problem[] = [];
  const present = isDir(stateDir);
  if (!present) problems.push({ file: stateDir, message: 'state directory is missing' });
  const sessions: SageSession[] = [];
  const files = present ? readStateFiles(stateDir, problems, sessions) : [];
  // The newest state wins: its own "updated" stamp when it has one, else the file's mtime.
  const latest = files.reduce<StateFile | null>(
    (best, f) => (best === null || stamp(f) > stamp(best) ? f : best),
    null,
  );
  const signals = readSignals(stateDir, problems);

  const name = latest?.state.epicId ?? (sanitizeLine(path.basename(root)) || 'sage');
  const run = emptyRun('sage', name, root, stateDir);
  run.problems = problems;
  const gate = hitlGate(latest, signals);
  run.gates = gate ? [gate] : [];
  if (signals.pendingCheckpoint !== null && !gate)
    run.warnings?.push(`checkpoint pending: ${signals.pendingCheckpoint}`);
  if (latest) {
    const s = latest.state;
    run.phase = s.phase !== null ? { current: s.phase, total: null, status: s.status ?? 'unknown' } : null;
    run.tasks = sageTasks(s, gate?.state === 'pending', s.shape === 'phase-protocol' ? (sessions[0] ?? null) : null);
  }
  run.status = sageStatus(latest?.state ?? null, gate, signals.last?.signal ?? null, problems.length > 0);
  return run;
}

function stamp(f: StateFile): number {
  return f.state.updatedMs ?? f.mtimeMs;
}

/** The run status (first match wins): blocked, waiting, complete, running; idle/unknown without state. */
export function sageStatus(
  state: SageState | null,
  gate: Gate | null,
  last: SageSignal | null,
  hasProblems: boolean,
): RunStatus {
  if (state?.status?.toLowerCase() === 'blocked' || last?.type === 'FATAL_ERROR') return 'blocked';
  if (gate?.state === 'pending') return 'waiting';
  if (state?.nextAction?.type === 'complete' || state?.allStoriesDone || last?.type === 'EPIC_COMPLETE')
    return 'complete';
  if (state) return 'running';
  return hasProblems ? 'unknown' : 'idle';
}

/** The state files of a state dir; the phase-protocol scripts' `session.json` goes to `sessions`. */
function readStateFiles(stateDir: string, problems: Problem[], sessions: SageSession[]): StateFile[] {
  const out: StateFile[] = [];
  for (const entry of listDir(stateDir)) {
    if (entry.startsWith('.') || !entry.endsWith('.json')) continue;
    const file = path.join(stateDir, entry);
    const raw = readText(file);
    if (!raw.ok) {
      problems.push({ file: sanitizeLine(file), message: sanitizeLine(raw.problem.message) });
      continue;
    }
    const json = parseJson(file, raw.value);
    if (!json.ok) {
      problems.push(cleanProblem(json.problem));
      continue;
    }
    const session = parseSageSession(json.value);
    if (session) {
      sessions.push(session);
      continue;
    }
    const parsed = parseSageState(json.value, file);
    problems.push(...parsed.problems);
    if (parsed.value) out.push({ file, mtimeMs: mtimeMs(file) ?? 0, state: parsed.value });
  }
  return out;
}

/**
 * The current task and the finished stories, as much as the state says; a phase-protocol story is
 * owned by the session `session.json` names.
 */
function sageTasks(s: SageState, awaitingHuman: boolean, session: SageSession | null): Task[] {
  const tasks: Task[] = [];
  if (s.current) {
    const c = s.current;
    const what = c.step ?? s.phase ?? 'current task';
    const of = c.taskIndex !== null ? ` (task ${c.taskIndex}${c.taskTotal !== null ? `/${c.taskTotal}` : ''})` : '';
    tasks.push({
      id: c.taskIndex !== null ? `${c.storyId}#${c.taskIndex}` : c.storyId,
      subject: `${what}${of}`,
      status: awaitingHuman ? 'awaiting approval' : (s.status ?? 'in_progress'),
      owner: session?.sessionId ?? null,
      blockedBy: [],
    });
  }
  const seen = new Set(tasks.map((t) => t.id));
  for (const story of s.completed) {
    if (seen.has(story.storyId)) continue;
    seen.add(story.storyId);
    tasks.push({
      id: story.storyId,
      subject: `story ${story.storyId}`,
      status: story.status,
      owner: null,
      blockedBy: [],
    });
  }
  for (const story of s.stories) {
    if (seen.has(story.storyId)) continue;
    seen.add(story.storyId);
    tasks.push({
      id: story.storyId,
      subject: story.title ?? `story ${story.storyId}`,
      status: story.status,
      owner: null,
      blockedBy: story.dependsOn,
    });
  }
  return tasks;
}
