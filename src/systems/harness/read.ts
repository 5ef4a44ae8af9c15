/**
 * The harness with named checkpoints (Papercusp; seed 001): `.harness/` or `.papercusp/` in a project.
 * Checkpoints are amber gates a human grants. An escalation is a red one: `escalation.md` in the
 * state dir (the harness API's rule, whatever the log says: a rejected plan writes it and exits 7
 * with no decision line), or a last decision of ESCALATE or the deprecated CHECKPOINT verb, which
 * the run loop handles as ESCALATE.
 */
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Gate, Problem, Run, RunStatus } from '../../model/model.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import {
  classifyStateEntry,
  describeHeading,
  EMPTY_HARNESS_CONFIG,
  parseCheckpointDoc,
  parseGrantedFile,
  parseHarnessConfig,
} from './files.js';
import type { HarnessConfig } from './files.js';
import { parseRunLog, readLogTail } from './log.js';
import type { Decision } from './log.js';
import { isEscalation } from './decision.js';
import { exists, isDir, listDir, mtimeMs } from '../../files/look.js';
import { cleanProblem, readText } from '../../files/read.js';
import { readJsonWith } from '../../files/json-dir.js';
import type { ReadSettings } from '../types.js';
import type { RunRead } from '../module.js';
import { cachedCheckpoints, DEFAULT_OPERATOR_BASE, noteProjectRoot, operatorBaseFrom } from './operator.js';
import type { ApiCheckpoint } from './operator.js';

export { CHECKPOINT_NAME } from './files.js';
export {
  parseCheckpointDoc,
  parseGrantedFile,
  parseHarnessConfig,
  parseHarnessConfigText,
  classifyStateEntry,
} from './files.js';
export { parseRunLog, readLogTail } from './log.js';

/** A run counts as running when its log was written this recently. */
export const HARNESS_RECENT_LOG_MS = 10 * 60_000;

/** Checkpoint bodies are for reading on screen; a bigger file is refused (and reported). */
const MAX_CHECKPOINT_BYTES = 256 * 1024;

const iso = (ms: number | null): string | null =>
  ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15 ? null : new Date(ms).toISOString();

/** The run streams the operator's orchestrator writes: `logs/<unix>-<role>[-<id>].jsonl`. */
const OPERATOR_STREAM = /^\d{9,13}-[A-Za-z][\w.-]{0,80}\.jsonl$/;

/**
 * Whether a project looks run by the operator: its run streams are in `logs/` and no checkpoint
 * file is in the state dir (the operator keeps checkpoints in its database). Two directory
 * listings, no network: a standalone project never waits on an operator.
 */
function looksOperatorRun(stateDir: string): boolean {
  if (!listDir(path.join(stateDir, 'logs')).some((n) => OPERATOR_STREAM.test(n))) return false;
  return !listDir(stateDir).some((n) => n.startsWith('checkpoint-'));
}

/** Reads one harness project: checkpoints from the state dir, the last decision from run.log. */
export function readHarnessRun(root: string, stateDir: string, settings: ReadSettings): Run {
  return readHarnessSource(root, stateDir, settings).run;
}

/**
 * Reads one harness project, saying whether it is polled: under an operator (named in tower's
 * environment, and knowing the project) its checkpoints are the operator API's, read again every tick.
 */
export function readHarnessSource(root: string, stateDir: string, settings: ReadSettings): RunRead {
  const run = emptyRun('harness', sanitizeLine(path.basename(root)) || 'harness', root, stateDir);
  if (!isDir(stateDir)) {
    run.problems.push({ file: stateDir, message: 'state directory is missing' });
    return { run, teamNames: [] };
  }
  const config = readConfig(path.join(stateDir, 'config.json'), run.problems);
  const operator = operatorBaseFrom(settings.env ?? {});
  if (operator.problem) run.problems.push({ file: null, message: operator.problem });
  // Nothing named: a project that looks run by the operator is asked at the orchestrator's own default base.
  const base = operator.base ?? (looksOperatorRun(stateDir) ? DEFAULT_OPERATOR_BASE : null);
  let checkpoints: Gate[];
  let polled = false;
  if (base === null) {
    checkpoints = readCheckpoints(stateDir, config, run.problems);
  } else {
    polled = true;
    // The harness slug is the project directory's name (orchestrator/src/hooks.ts basenameOf(projectDir)).
    const slug = path.basename(root);
    const twin = noteProjectRoot(base, slug, root, settings.now, isDir);
    if (twin)
      run.problems.push({
        file: null,
        message:
          `${sanitizeLine(twin)} has the same folder name "${sanitizeLine(slug)}": the ` +
          `operator knows a project by that name alone, so tower cannot tell whose gates it lists; ` +
          `grants here are refused until the operator's workspace tells them apart`,
      });
    const answer = cachedCheckpoints(base, slug, settings.now);
    if (answer?.kind === 'ok') {
      checkpoints = answer.checkpoints.map((c) => apiGate(c, config, answer.url));
      for (const message of answer.problems) run.problems.push({ file: answer.url, message });
    } else if (answer?.kind === 'unknown-project') {
      // The operator does not run this project: it is a standalone harness, its files are the truth.
      checkpoints = readCheckpoints(stateDir, config, run.problems);
    } else if (operator.base === null) {
      // No operator named, and none answers at the default base: its gates are out of sight.
      checkpoints = readCheckpoints(stateDir, config, run.problems);
      run.warnings = [
        ...(run.warnings ?? []),
        `it looks run by the Papercusp operator (run streams in logs/, no checkpoint files): its ` +
          `gates may be in the operator's database; tower cannot see them (set OPERATOR_BASE)`,
      ];
    } else {
      const why = answer === null ? 'no answer yet' : answer.message;
      const url = answer?.url ?? null;
      run.problems.push({
        file: url,
        message:
          `the harness operator's API did not answer (${why}): checkpoints are shown from ` +
          `files, which a harness under its operator does not read, and none is shown as granted`,
      });
      checkpoints = readCheckpoints(stateDir, config, []).map(unconfirmed);
    }
  }

  const logFile = path.join(stateDir, 'logs', 'run.log');
  let decision: Decision | null = null;
  let logMtime: number | null = null;
  if (exists(logFile)) {
    const tail = readLogTail(logFile);
    if (tail.ok) {
      logMtime = tail.value.mtimeMs;
      decision = parseRunLog(tail.value.text, logFile).value;
    } else {
      run.problems.push(cleanProblem(tail.problem));
    }
  }
  const escalation = escalationGate(decision, logFile, logMtime, stateDir, run.problems);

  run.gates = escalation ? [escalation, ...checkpoints] : checkpoints;
  // The harness has no phases: its last orchestrator decision is where it stands ("NEXT_WORKER", "DONE").
  run.phase = decision ? { current: decision.verb, total: null, status: decisionStatus(decision) } : null;
  run.status = harnessStatus(run.gates, decision, logMtime, settings.now);
  return polled ? { run, teamNames: [], polled } : { run, teamNames: [] };
}

/** A checkpoint gate from the operator's answer: what the operator holds, not the files. */
function apiGate(c: ApiCheckpoint, config: HarnessConfig, url: string): Gate {
  const declared = config.types.find((t) => t.name === c.name);
  const doc = c.content.trim() === '' ? null : parseCheckpointDoc(c.content, url).value;
  const what =
    declared?.description ??
    (doc?.heading ? describeHeading(doc.heading, c.name) : c.granted ? 'checkpoint granted' : 'checkpoint requested');
  const parts = [
    doc ? doc.body.trimEnd() : '',
    c.granted ? 'Granted (the operator says so; the harness consumes it when it runs on).' : '',
    `From the operator: GET ${url}`,
  ];
  return {
    id: c.name,
    kind: 'checkpoint',
    state: c.granted ? 'granted' : 'pending',
    since: iso(c.waitingSinceMs),
    grantable: !c.granted,
    title: `${c.name}: ${what}`,
    file: null,
    body: parts.filter((p) => p !== '').join('\n\n'),
  };
}

/**
 * A checkpoint read from files while the operator is not answering: never shown as granted (a
 * `.granted` sentinel is not what the operator reads), and said to be unconfirmed.
 */
function unconfirmed(g: Gate): Gate {
  const sentinel =
    g.state === 'granted' ? ' A .granted file is there, but the harness under its operator does not read it.' : '';
  return {
    ...g,
    state: 'pending',
    grantable: true,
    title: `${g.title} (from files, not confirmed by the operator)`,
    body:
      `Read from files: the operator's API did not answer, so this is not what the harness ` +
      `sees.${sentinel}\n\n${g.body}`,
  };
}

/** The run status from its gates and log (first match wins): blocked, waiting, complete, running, idle. */
export function harnessStatus(
  gates: Gate[],
  decision: Decision | null,
  logMtime: number | null,
  now: number,
): RunStatus {
  if (gates.some((g) => g.kind === 'escalation' && g.state === 'pending')) return 'blocked';
  if (gates.some((g) => g.kind === 'checkpoint' && g.state === 'pending')) return 'waiting';
  if (decision?.verb === 'DONE') return 'complete';
  if (logMtime !== null && now - logMtime < HARNESS_RECENT_LOG_MS) return 'running';
  return 'idle';
}

function readConfig(file: string, problems: Problem[]): HarnessConfig {
  if (!exists(file)) return EMPTY_HARNESS_CONFIG;
  return readJsonWith(file, parseHarnessConfig, problems)?.value ?? EMPTY_HARNESS_CONFIG;
}

interface CheckpointFiles {
  md: boolean;
  granted: boolean;
  fired: boolean;
}

/** Gates for every checkpoint file in the state dir, sorted by name. */
function readCheckpoints(stateDir: string, config: HarnessConfig, problems: Problem[]): Gate[] {
  const byName = new Map<string, CheckpointFiles>();
  for (const entry of listDir(stateDir)) {
    const kind = classifyStateEntry(entry);
    if (kind.kind === 'other') continue;
    if (kind.kind === 'bad-name') {
      problems.push({
        file: sanitizeLine(path.join(stateDir, entry)),
        message: `checkpoint name "${kind.name.slice(0, 80)}" is not valid (letters, digits, "_", "." and "-" only)`,
      });
      continue;
    }
    const files = byName.get(kind.name) ?? { md: false, granted: false, fired: false };
    if (kind.kind === 'pending') files.md = true;
    if (kind.kind === 'granted') files.granted = true;
    if (kind.kind === 'fired') files.fired = true;
    byName.set(kind.name, files);
  }
  const gates: Gate[] = [];
  for (const [name, files] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // A fired marker alone is history ("fired once this mission"), not a gate.
    if (!files.md && !files.granted) continue;
    gates.push(checkpointGate(stateDir, name, files, config, problems));
  }
  return gates;
}

function checkpointGate(
  stateDir: string,
  name: string,
  files: CheckpointFiles,
  config: HarnessConfig,
  problems: Problem[],
): Gate {
  const mdFile = path.join(stateDir, `checkpoint-${name}.md`);
  const grantedFile = `${mdFile}.granted`;
  const declared = config.types.find((t) => t.name === name);
  let heading: string | null = null;
  const parts: string[] = [];
  if (files.md) {
    const raw = readText(mdFile, MAX_CHECKPOINT_BYTES);
    if (raw.ok) {
      const doc = parseCheckpointDoc(raw.value, mdFile).value;
      heading = doc.heading;
      parts.push(doc.body.trimEnd());
    } else {
      problems.push(cleanProblem(raw.problem));
    }
  }
  if (files.granted) {
    const raw = readText(grantedFile, MAX_CHECKPOINT_BYTES);
    if (raw.ok) {
      const grantedAt = parseGrantedFile(raw.value, grantedFile).value;
      const note = sanitize(raw.value).trim();
      parts.push(grantedAt ? `Granted at ${grantedAt}.` : note === '' ? 'Granted.' : `Granted: ${note}`);
    } else {
      problems.push(cleanProblem(raw.problem));
    }
  }
  if (files.fired) parts.push(`Fired this mission (.checkpoint-${name}.fired).`);
  const what =
    declared?.description ??
    (heading !== null ? describeHeading(heading, name) : files.md ? 'checkpoint requested' : 'checkpoint granted');
  const granted = files.granted;
  return {
    id: name,
    kind: 'checkpoint',
    state: granted ? 'granted' : 'pending',
    // When the gate began waiting: the request's mtime. A grant with no request left says nothing about that.
    since: files.md ? iso(mtimeMs(mdFile)) : null,
    grantable: !granted,
    title: `${name}: ${what}`,
    file: files.md ? mdFile : grantedFile,
    body: parts.join('\n\n'),
  };
}

/** "last decision: NEXT_WORKER F-1", or for a batch "last decision: batch of 3: NEXT_WORKER F-1 | …". */
function decisionStatus(d: Decision): string {
  if (d.batch) return `last decision: batch of ${d.batch.length}: ${d.rest}`;
  return d.rest ? `last decision: ${d.verb} ${d.rest}` : `last decision: ${d.verb}`;
}

/** The first heading of escalation.md, as a title. */
function headingOf(text: string): string | null {
  const line = text.split('\n').find((l) => /^#{1,6}\s+\S/.test(l.trim()));
  if (!line) return null;
  // "# Escalation: plan rejected" says "plan rejected"; a bare "# Escalation" says nothing more.
  const said = sanitizeLine(line.trim().replace(/^#{1,6}\s+/, ''))
    .trim()
    .replace(/^escalation\b\s*[:—–-]?\s*/i, '');
  return said === '' ? null : said;
}

/** The red gate: escalation.md in the state dir, or an escalating last decision; null when neither. */
function escalationGate(
  decision: Decision | null,
  logFile: string,
  logMtime: number | null,
  stateDir: string,
  problems: Problem[],
): Gate | null {
  const reportFile = path.join(stateDir, 'escalation.md');
  let report: string | null = null;
  if (exists(reportFile)) {
    const raw = readText(reportFile, MAX_CHECKPOINT_BYTES);
    if (raw.ok) report = raw.value;
    // An escalation report that cannot be read still means the run is escalated.
    else problems.push(cleanProblem(raw.problem));
  }
  const byReport = exists(reportFile);
  const byLog = decision !== null && isEscalation(decision.verb);
  if (!byReport && !byLog) return null;

  const parts: string[] = [];
  if (byLog && decision) {
    parts.push(
      `ORCH decision: ${decision.verb}${decision.rest ? ` ${decision.rest}` : ''}${decision.role ? ` (role=${decision.role})` : ''}`,
    );
    if (decision.verb === 'CHECKPOINT')
      parts.push('CHECKPOINT is a deprecated verb: the run loop handles it as ESCALATE and stops.');
  }
  if (report !== null && report.trim() !== '') parts.push(sanitize(report).trimEnd());
  else if (byReport) parts.push(`${reportFile} exists: the harness reports this run as escalated.`);

  let title: string;
  if (byLog && decision) {
    const what =
      decision.verb === 'CHECKPOINT'
        ? `CHECKPOINT${decision.rest ? ` ${decision.rest}` : ''} (deprecated verb, handled as ESCALATE)`
        : decision.rest;
    title = what ? `Escalated: ${what.slice(0, 200)}` : 'Escalated';
  } else {
    const heading = report !== null ? headingOf(report) : null;
    title = heading ? `Escalated: ${heading.slice(0, 200)}` : 'Escalated (escalation.md)';
  }
  const reportMtime = byReport ? mtimeMs(reportFile) : null;
  return {
    id: 'escalation',
    kind: 'escalation',
    state: 'pending',
    since: byLog && decision ? (decision.at ?? iso(logMtime)) : iso(reportMtime),
    grantable: false,
    title,
    file: byReport ? reportFile : logFile,
    body: parts.join('\n\n'),
  };
}
