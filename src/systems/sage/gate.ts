/**
 * SAGE's human gate: the signal files next to the state (`.last_signal`, `.last_signal_context`,
 * `.pending_checkpoint`, `.resume-signal`) and the orchestrator's log, which is the only place an
 * answer lives on once the orchestrator has read and deleted `.resume-signal`. A gate raised by a
 * HITL signal or `next_action: hitl` is pending only while no answer is newer than it (answer.ts).
 */
import path from 'node:path';
import type { Gate, Problem } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { exists, mtimeMs } from '../../files/look.js';
import { readText } from '../../files/read.js';
import { readLogTail } from '../../files/tail.js';
import { ORCHESTRATOR_LOG, gateAnswer, lastLoggedAnswer } from './answer.js';
import type { GateAnswer, LoggedAnswer } from './answer.js';
import { parseLastSignal, parseResumeSignal } from './signals.js';
import type { SageSignal } from './signals.js';
import type { SageState } from './state.js';
import { signalContextText } from './stream-json.js';

/** Signal files are a line or a few; anything bigger is not one. */
const MAX_SIGNAL_BYTES = 64 * 1024;

/** An answer in `.resume-signal` that the orchestrator has not read yet. */
export interface ResumeFile {
  /** The status as the orchestrator will take it: the parsed word, else its first line upper-cased. */
  status: string;
  /** Whether the orchestrator reads the file as written (a `STATUS: WORD` line of one of its words). */
  known: boolean;
  /** What the file says when the orchestrator reads it otherwise. */
  written?: string | null;
  mtimeMs: number;
}

/** The signal files next to the state, and the orchestrator's last logged answer. */
export interface Signals {
  last: { signal: SageSignal; file: string; mtimeMs: number } | null;
  context: string | null;
  pendingCheckpoint: string | null;
  resume: ResumeFile | null;
  logged: LoggedAnswer | null;
  logFile: string;
}

/** The orchestrator's log of a state dir (`<project>/.sage/state` → `<project>/.sage/logs/orchestrator-v2.log`). */
export function orchestratorLogOf(stateDir: string): string {
  return path.join(path.dirname(path.dirname(stateDir)), ORCHESTRATOR_LOG);
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

/** Reads the signal files and the end of the orchestrator's log; what cannot be read is a problem. */
export function readSignals(stateDir: string, problems: Problem[]): Signals {
  const signals: Signals = {
    last: null,
    context: null,
    pendingCheckpoint: null,
    resume: null,
    logged: null,
    logFile: orchestratorLogOf(stateDir),
  };
  const lastFile = path.join(stateDir, '.last_signal');
  const last = readSignalFile(lastFile, problems);
  if (last !== null) {
    const parsed = parseLastSignal(last, lastFile);
    problems.push(...parsed.problems);
    if (parsed.value) signals.last = { signal: parsed.value, file: lastFile, mtimeMs: mtimeMs(lastFile) ?? 0 };
  }
  const context = readSignalFile(path.join(stateDir, '.last_signal_context'), problems);
  if (context !== null) {
    const text = signalContextText(context);
    if (text !== '') signals.context = text;
  }
  const pending = readSignalFile(path.join(stateDir, '.pending_checkpoint'), problems);
  if (pending !== null && pending.trim() !== '')
    signals.pendingCheckpoint = sanitizeLine(pending.trim().split('\n')[0] ?? '');
  const resumeFile = path.join(stateDir, '.resume-signal');
  const resume = readSignalFile(resumeFile, problems);
  if (resume !== null) {
    const parsed = parseResumeSignal(resume, resumeFile);
    problems.push(...parsed.problems);
    // What the orchestrator will do (an answer it cannot read goes on as APPROVED), not what the file says.
    signals.resume = {
      status: parsed.value,
      known: parsed.written === null,
      written: parsed.written,
      mtimeMs: mtimeMs(resumeFile) ?? 0,
    };
  }
  if (exists(signals.logFile)) {
    const tail = readLogTail(signals.logFile);
    if (tail.ok) signals.logged = lastLoggedAnswer(tail.value.text);
    else problems.push({ file: sanitizeLine(signals.logFile), message: sanitizeLine(tail.problem.message) });
  }
  return signals;
}

function describeSignal(s: SageSignal): string {
  const head = `SAGE_SIGNAL:${s.type}${s.payload !== null ? `:${s.payload}` : ''}`;
  const fields = Object.entries(s.fields).map(([k, v]) => `${k}: ${v}`);
  return [head, ...fields].join('\n');
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What the gate's body says about its answer. */
function answerNote(answer: GateAnswer, resume: ResumeFile | null): string | null {
  if (answer.state === 'answered' && answer.how === 'unread') {
    const how =
      resume && !resume.known
        ? ` (the file says ${resume.written ?? 'nothing'}; the orchestrator acts only on a \`STATUS: ` +
          `WORD\` line in capitals, or the word alone, and goes on as ${answer.status})`
        : '';
    return (
      `Answered in .resume-signal: ${answer.status || '(empty)'}${how}, written ` +
      `${iso(answer.atMs)}; the orchestrator has not read it yet.`
    );
  }
  if (answer.state === 'answered') {
    const read = answer.written ? ` (it read ${answer.written})` : '';
    return (
      `Answered: ${answer.status ?? '(status not logged)'}${read} at ${answer.at}. The ` +
      `orchestrator read and removed .resume-signal (.sage/logs/orchestrator-v2.log); a new gate ` +
      `comes with the next HITL signal.`
    );
  }
  if (answer.staleResume)
    return `Last answer in .resume-signal: STATUS: ${answer.staleResume.status} (older than this gate)`;
  return null;
}

/** The human gate, when the newest state or the last signal asks for one. */
export function hitlGate(
  latest: { file: string; mtimeMs: number; state: SageState } | null,
  signals: Signals,
): Gate | null {
  const byState = latest?.state.nextAction?.type === 'hitl';
  const bySignal = signals.last?.signal.type === 'HITL_REQUIRED';
  if (!byState && !bySignal) return null;
  // What an answer must be newer than: the files that raised the gate.
  const raisedAt = Math.max(
    byState && latest ? latest.mtimeMs : 0,
    bySignal && signals.last ? signals.last.mtimeMs : 0,
  );
  const answer = gateAnswer(raisedAt, signals.resume, signals.logged);
  const answered = answer.state === 'answered';

  const body: string[] = [];
  const description = byState ? (latest?.state.nextAction?.description ?? null) : null;
  if (description) body.push(description);
  if (signals.last) body.push(describeSignal(signals.last.signal));
  if (signals.context) body.push(signals.context);
  if (signals.pendingCheckpoint) body.push(`Pending checkpoint: ${signals.pendingCheckpoint}`);
  const note = answerNote(answer, signals.resume);
  if (note) body.push(note);

  const since = byState && latest ? iso(latest.state.updatedMs ?? latest.mtimeMs) : iso(signals.last?.mtimeMs ?? null);
  const base = description ?? 'Human review required';
  const status = answer.state === 'answered' ? answer.status : null;
  return {
    id: 'hitl',
    kind: 'approval',
    state: answered ? 'granted' : 'pending',
    since,
    // An answered gate is never granted again: a second answer would be read at the NEXT gate, unseen.
    grantable: !answered,
    title: answered && status && status !== 'APPROVED' ? `${base} (answered ${status})` : base,
    file: latest?.file ?? signals.last?.file ?? null,
    body: body.join('\n\n'),
  };
}
