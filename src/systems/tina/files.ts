/** Reads a tina state directory from disk into parsed values; everything odd becomes a problem. */
import path from 'node:path';
import type { Problem } from '../../model/model.js';
import { parseHandoff } from './handoff.js';
import { markdownReader } from './markdown.js';
import type { ParsedHandoff } from './handoff.js';
import { exists, listDir, mtimeMs, statFile } from '../../files/look.js';
import { cleanProblem, readJson, readText } from '../../files/read.js';
import { readJsonWith } from '../../files/json-dir.js';
import { toIso } from '../../files/values.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { comparePhases, currentPhaseOf } from './phases.js';
import { parseCheckpointSignal, parseContextMetrics, parsePhaseStatus, parseSupervisorState } from './state.js';
import type { CheckpointSignal, ContextMetrics, PhaseStatus, SupervisorState } from './state.js';

/** Everything read from one tina state directory; all text in it is already sanitized. */
export interface TinaFiles {
  stateDir: string;
  supervisorFile: string;
  /** Whether supervisor-state.json exists at all (it may exist and still be unreadable). */
  supervisorPresent: boolean;
  supervisor: SupervisorState | null;
  /**
   * The current phase: the supervisor's (a running remediation `N.5` of its phase N), else the highest
   * `phase-N` directory.
   */
  currentPhase: string | null;
  phaseStatusFile: string | null;
  phaseStatus: PhaseStatus | null;
  signal: { file: string; mtimeMs: number | null; value: CheckpointSignal } | null;
  /**
   * context-metrics.json, with where it is and when it was written (the gauge, and the context gate of a tina
   * without checkpoint-needed).
   */
  metrics: (ContextMetrics & { file?: string; mtimeMs?: number | null }) | null;
  /** The handoff of the current phase, else the newest of any phase. */
  handoff: { file: string; mtimeMs: number; value: ParsedHandoff | null } | null;
  /** `tower-escalation.json`: a checkpoint tower ran timed out (only while no newer handoff exists). */
  towerEscalation?: { file: string; reason: string; at: string | null } | null;
  problems: Problem[];
}

const PHASE_DIR = /^phase-(\d+(?:\.\d+)*)$/;

/** Reads supervisor state, the current phase's status, the signal, the context gauge and the handoff. */
export function readTinaFiles(stateDir: string): TinaFiles {
  const problems: Problem[] = [];
  const names = listDir(stateDir, problems);
  const phaseDirs = names
    .map((n) => PHASE_DIR.exec(n)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort(comparePhases);

  const supervisorFile = path.join(stateDir, 'supervisor-state.json');
  const supervisorPresent = exists(supervisorFile);
  let supervisor: SupervisorState | null = null;
  if (supervisorPresent) supervisor = readJsonWith(supervisorFile, parseSupervisorState, problems)?.state ?? null;
  else problems.push({ file: supervisorFile, message: 'no supervisor-state.json in the tina state directory' });

  const currentPhase = (supervisor ? currentPhaseOf(supervisor) : null) ?? phaseDirs[phaseDirs.length - 1] ?? null;

  let phaseStatusFile: string | null = null;
  let phaseStatus: PhaseStatus | null = null;
  if (currentPhase !== null) {
    const file = path.join(stateDir, `phase-${currentPhase}`, 'status.json');
    // Stat first: a status file tower may not look at is a problem, not a phase without status.
    const st = statFile(file);
    if (st.kind === 'bad') problems.push(cleanProblem(st.problem));
    else if (st.kind === 'file') {
      phaseStatusFile = file;
      phaseStatus = readJsonWith(file, parsePhaseStatus, problems)?.status ?? null;
    }
  }

  let signal: TinaFiles['signal'] = null;
  const signalFile = path.join(stateDir, 'checkpoint-needed');
  if (exists(signalFile)) {
    const read = readText(signalFile);
    // An unreadable signal is still a signal: the file's existence is what tina acts on.
    const parsed = read.ok ? parseCheckpointSignal(read.value, signalFile) : parseCheckpointSignal('', signalFile);
    if (!read.ok) problems.push(cleanProblem(read.problem));
    problems.push(...parsed.problems);
    signal = { file: signalFile, mtimeMs: mtimeMs(signalFile), value: parsed.signal };
  }

  const metricsFile = path.join(stateDir, 'context-metrics.json');
  const read = exists(metricsFile) ? (readJsonWith(metricsFile, parseContextMetrics, problems)?.metrics ?? null) : null;
  const metrics = read ? { ...read, file: metricsFile, mtimeMs: mtimeMs(metricsFile) } : null;

  const handoff = readHandoff(stateDir, currentPhase, phaseDirs, problems);
  const towerEscalation = readTowerEscalation(stateDir, handoff?.mtimeMs ?? null, problems);
  return {
    towerEscalation,
    stateDir,
    supervisorFile,
    supervisorPresent,
    supervisor,
    currentPhase,
    phaseStatusFile,
    phaseStatus,
    signal,
    metrics,
    handoff,
    problems,
  };
}

/** The escalation tower writes when a checkpoint times out; a handoff written since resolves it. */
function readTowerEscalation(
  stateDir: string,
  handoffMtime: number | null,
  problems: Problem[],
): TinaFiles['towerEscalation'] {
  const file = path.join(stateDir, 'tower-escalation.json');
  const mtime = mtimeMs(file);
  if (mtime === null || (handoffMtime !== null && handoffMtime > mtime)) return null;
  const read = readJson(file);
  if (!read.ok) {
    problems.push(cleanProblem(read.problem));
    return { file, reason: 'checkpoint timed out', at: new Date(mtime).toISOString() };
  }
  const v = read.value as { reason?: unknown; at?: unknown } | null;
  const reason = v && typeof v.reason === 'string' ? sanitizeLine(v.reason) : 'checkpoint timed out';
  return { file, reason, at: toIso(v?.at) ?? new Date(mtime).toISOString() };
}

// Parsing Markdown costs milliseconds per handoff and the live store re-reads a run on every change
// of its state dir; a handoff rarely changes, so the last parse of each file is kept.
const handoffCache = new Map<string, { text: string; result: ReturnType<typeof parseHandoff> }>();

/**
 * The parse of a handoff, or null while the Markdown reader is still being loaded (the snapshot reads it
 * again then).
 */
function parseHandoffCached(text: string, file: string): ReturnType<typeof parseHandoff> | null {
  const hit = handoffCache.get(file);
  if (hit && hit.text === text) return hit.result;
  const parse = markdownReader();
  if (!parse) return null;
  const result = parseHandoff(text, file, parse);
  if (handoffCache.size > 500) handoffCache.clear();
  handoffCache.set(file, { text, result });
  return result;
}

function readHandoff(
  stateDir: string,
  current: string | null,
  phaseDirs: string[],
  problems: Problem[],
): TinaFiles['handoff'] {
  // Stat, never open, to choose: a handoff that is a FIFO, a directory, a device or a symlink loop is
  // a problem, never a handoff "written 0 s ago".
  const candidates: { file: string; mtime: number }[] = [];
  for (const n of phaseDirs) {
    const file = path.join(stateDir, `phase-${n}`, 'handoff.md');
    const st = statFile(file);
    if (st.kind === 'bad') problems.push(cleanProblem(st.problem));
    else if (st.kind === 'file') candidates.push({ file, mtime: st.mtimeMs });
  }
  const currentFile = current === null ? null : path.join(stateDir, `phase-${current}`, 'handoff.md');
  const chosen =
    candidates.find((c) => c.file === currentFile) ??
    candidates.reduce<(typeof candidates)[number] | null>(
      (best, c) => (best === null || c.mtime > best.mtime ? c : best),
      null,
    );
  if (chosen === null) return null;
  const read = readText(chosen.file);
  if (!read.ok) {
    problems.push(cleanProblem(read.problem));
    return { file: chosen.file, mtimeMs: chosen.mtime, value: null };
  }
  const parsed = parseHandoffCached(read.value, chosen.file);
  if (!parsed) return { file: chosen.file, mtimeMs: chosen.mtime, value: null };
  problems.push(...parsed.problems);
  return { file: chosen.file, mtimeMs: chosen.mtime, value: parsed.handoff };
}
