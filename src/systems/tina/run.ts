/** Turns what was read from a tina state directory, plus the Claude teams, into one run of the snapshot. */
import path from 'node:path';
import { emptyRun } from '../../model/model.js';
import type { Gate, Member, Run, RunStatus } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { toMs } from '../../files/values.js';
import type { TinaFiles } from './files.js';
import { mergeReviews } from './reviews.js';
import { tinaTeams } from './teams.js';
import type { ReadSettings, Team } from '../types.js';

const RUNNING_WORDS = ['planning', 'planned', 'executing', 'reviewing', 'in_progress', 'running', 'validating'];
const COMPLETE_WORDS = ['complete', 'completed', 'done'];
/** Phase words after which a silent heartbeat is expected, not a sign of a stuck phase. */
const AT_REST_WORDS = [...COMPLETE_WORDS, 'blocked', 'pending'];

/** "45 s", "12 min", "2 h", "3 d". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} d`;
}

function statusOfWord(w: string | null): RunStatus | null {
  if (w === null) return null;
  if (RUNNING_WORDS.includes(w)) return 'running';
  if (COMPLETE_WORDS.includes(w)) return 'complete';
  if (w === 'blocked') return 'blocked';
  if (w === 'pending') return 'idle';
  return null;
}

/** Builds the run; `teamNames` are the Claude teams it took in, so they are not also listed on their own. */
export function assembleTinaRun(
  root: string,
  files: TinaFiles,
  teams: readonly Team[],
  settings: ReadSettings,
): { run: Run; teamNames: string[] } {
  const sup = files.supervisor;
  const name = sup?.feature ?? sanitizeLine(path.basename(root));
  const run = emptyRun('tina', name, root, files.stateDir);
  const warnings: string[] = [];
  run.problems.push(...files.problems);

  const n = files.currentPhase;
  const entry = n !== null ? sup?.phases.get(n) : undefined;
  const phaseWord = phaseWordOf(files);
  if (n !== null)
    run.phase = { current: n, total: sup?.totalPhases ?? null, status: phaseWord ?? sup?.status ?? 'unknown' };

  // Teams: members and tasks come from the live team files; the handoff stands in when they are gone.
  const merged = takeInTeams(run, root, files, teams, settings);
  const handoff = files.handoff?.value ?? null;

  // Reviews: the supervisor's verdicts win over the handoff's tracking of the same task and kind.
  run.reviews = mergeReviews(entry?.reviews ?? [], handoff?.reviews ?? []);

  // Gates.
  const signal = files.signal;
  const fromSignal = signalGate(files, settings);
  if (fromSignal) run.gates.push(fromSignal);
  const fromMetrics = signal ? null : metricsGate(files, settings);
  if (fromMetrics) run.gates.push(fromMetrics);
  const blocked = blockedGate(files);
  if (blocked) run.gates.push(blocked);
  const esc = files.towerEscalation;
  if (esc) {
    run.gates.push({
      id: 'checkpoint-timeout',
      kind: 'escalation',
      state: 'pending',
      since: esc.at,
      grantable: false,
      title: `Checkpoint timed out: ${esc.reason}`,
      file: esc.file,
      body: `${esc.reason}\nA new handoff resolves it; \`tower checkpoint\` tries again.`,
    });
  }

  // Status.
  if (!files.supervisorPresent || sup === null) run.status = 'unknown';
  else if ((blocked && blocked.kind === 'escalation') || esc) run.status = 'blocked';
  else if (blocked) run.status = 'waiting';
  else {
    const word = sup.status ?? phaseWord;
    const status = statusOfWord(word);
    if (status === null && word !== null) {
      run.problems.push({ file: files.supervisorFile, message: `unknown status "${word}"` });
    }
    run.status = status ?? 'unknown';
  }
  if (run.status === 'running' && (signal || fromMetrics)) run.status = 'waiting';

  // Context gauge.
  if (files.metrics) {
    const threshold = signal?.value.threshold ?? settings.contextThresholdPct;
    run.context = { usedPct: files.metrics.usedPct, threshold };
    if (files.metrics.usedPct >= threshold)
      warnings.push(`context ${files.metrics.usedPct}% ≥ ${threshold}% threshold`);
  }

  // Handoff age and heartbeat.
  if (files.handoff) {
    const age = settings.now - files.handoff.mtimeMs;
    const stale = age > settings.staleHandoffMinutes * 60_000;
    run.handoff = { path: files.handoff.file, writtenAt: new Date(files.handoff.mtimeMs).toISOString(), stale };
    if (stale) warnings.push(`handoff ${formatAge(age)} old`);
  }
  const beat = toMs(files.phaseStatus?.heartbeatAt ?? null);
  if (beat !== null && !AT_REST_WORDS.includes(phaseWord ?? '')) {
    const age = settings.now - beat;
    if (age > settings.heartbeatStaleSec * 1000) {
      const message = `phase ${n ?? '?'} heartbeat ${formatAge(age)} old — looks stuck`;
      warnings.push(message);
      run.problems.push({ file: files.phaseStatusFile, message });
    }
  }
  run.warnings = warnings;
  return { run, teamNames: merged.map((t) => t.name) };
}

/** Takes the run's Claude teams in (members, tasks, problems), the handoff's standing in for none; the teams taken in. */
function takeInTeams(run: Run, root: string, files: TinaFiles, teams: readonly Team[], settings: ReadSettings) {
  const { teams: merged, problems: teamProblems } = tinaTeams(
    files.supervisor?.feature ?? null,
    root,
    teams,
    settings.paneSessions,
  );
  run.problems.push(...teamProblems);
  for (const team of merged) {
    run.members.push(...team.members.map((m) => ({ ...m })));
    // A task is never changed once read (members are: liveness), so the run shares its team's.
    for (const t of team.tasks) run.tasks.push(t);
    run.problems.push(...team.problems);
  }
  const handoff = files.handoff?.value ?? null;
  if (run.members.length === 0 && handoff) {
    run.members = handoff.members.map((m): Member => ({
      name: m.name,
      role: m.role,
      model: '',
      paneId: null,
      state: 'unknown',
      lead: m.role === 'team-lead',
    }));
  }
  if (run.tasks.length === 0 && handoff) run.tasks = handoff.tasks.map((t) => ({ ...t, team: 'handoff' }));
  return merged;
}

/** The context gate `checkpoint-needed` raises, or null without one. */
function signalGate(files: TinaFiles, settings: ReadSettings): Gate | null {
  const signal = files.signal;
  if (!signal) return null;
  const s = signal.value;
  // One figure for the run: the context as the metrics say it now (what the gauge and the warning
  // show), else as the signal said it when it was written; the signal's own figure goes in the body.
  const pct = files.metrics?.usedPct ?? s.contextPct;
  const threshold = s.threshold ?? settings.contextThresholdPct;
  const title =
    pct !== null && pct >= threshold
      ? `Context ${pct}% ≥ ${threshold}% — checkpoint due`
      : pct !== null
        ? `Context ${pct}% — checkpoint due`
        : 'Checkpoint due';
  const body = [
    s.contextPct !== null && s.contextPct !== pct ? `signalled at: context ${s.contextPct}%` : null,
    s.source !== null ? `source: ${s.source}` : null,
    s.triggeredAt !== null ? `triggered at: ${s.triggeredAt}` : null,
  ].filter((l): l is string => l !== null);
  return {
    id: 'context',
    kind: 'context',
    state: 'pending',
    since: s.triggeredAt ?? (signal.mtimeMs !== null ? new Date(signal.mtimeMs).toISOString() : null),
    grantable: false,
    title,
    file: signal.file,
    ...(body.length > 0 ? { body: body.join('\n') } : {}),
  };
}

/**
 * The context gate of a tina that writes no `checkpoint-needed` (removed in tina 49c3de7: its
 * statusline writes only context-metrics.json and the supervisor decides): the metrics at or past the
 * threshold, written since the last handoff (a checkpoint just taken leaves stale metrics behind until
 * the lead's next turn). It waits since that handoff, so each filling of the context is its own gate.
 */
function metricsGate(files: TinaFiles, settings: ReadSettings): Gate | null {
  const m = files.metrics;
  if (!m || m.usedPct < settings.contextThresholdPct) return null;
  const written = m.mtimeMs ?? toMs(m.timestamp);
  const handoffAt = files.handoff?.mtimeMs ?? null;
  if (handoffAt !== null && written !== null && written <= handoffAt) return null;
  return {
    id: 'context',
    kind: 'context',
    state: 'pending',
    since: handoffAt !== null ? new Date(handoffAt).toISOString() : null,
    grantable: false,
    title: `Context ${m.usedPct}% ≥ ${settings.contextThresholdPct}% — checkpoint due`,
    file: m.file ?? null,
    body:
      `context-metrics.json says ${m.usedPct}% used${m.timestamp ? ` at ${m.timestamp}` : ''}; ` +
      `the threshold is ${settings.contextThresholdPct}%.\nThe checkpoint cycle saves a handoff, ` +
      `clears and rehydrates the lead.`,
  };
}

/**
 * A phase's status word. phase-N/status.json is written by the phase's team and is the freshest word
 * while the phase runs, but the supervisor's state wins where the file is stale: the supervisor
 * blocked the phase (a "complete" or "executing" left in the file must not hide it), or it is
 * planning the phase again (self-repair re-plans while the file still says blocked).
 */
function phaseWordOf(files: TinaFiles): string | null {
  const n = files.currentPhase;
  const entry = n !== null ? files.supervisor?.phases.get(n) : undefined;
  const fileWord = files.phaseStatus?.status ?? null;
  const supWord = entry?.status ?? null;
  if (supWord === 'blocked') return supWord;
  if (fileWord === 'blocked' && (supWord === 'planning' || supWord === 'planned')) return supWord;
  return fileWord ?? supWord;
}

/** The escalation of a blocked phase: from phase-N/status.json, else the supervisor's phase entry or status. */
function blockedGate(files: TinaFiles): Gate | null {
  const n = files.currentPhase;
  const sup = files.supervisor;
  const entry = n !== null ? sup?.phases.get(n) : undefined;
  const ps = files.phaseStatus;
  let reason: string | null;
  let since: string | null;
  let file: string;
  let context: string[] = [];
  // The status file's "blocked" stands unless the supervisor is planning the phase again.
  const fileBlocked = ps?.status === 'blocked' && files.phaseStatusFile !== null && phaseWordOf(files) === 'blocked';
  if (fileBlocked && ps && files.phaseStatusFile !== null) {
    reason = ps.reason ?? entry?.blockedReason ?? null;
    since = ps.blockedAt;
    file = files.phaseStatusFile;
    context = ps.contextLines;
  } else if (
    entry?.status === 'blocked' ||
    (sup?.status === 'blocked' && phaseWordOf(files) !== 'planning' && phaseWordOf(files) !== 'planned')
  ) {
    reason = entry?.blockedReason ?? sup?.blockedReason ?? null;
    since = entry?.blockedAt ?? null;
    file = files.supervisorFile;
  } else return null;
  const why = reason ?? 'no reason given';
  const at = ps?.gate ? ` at gate ${ps.gate}` : '';
  // An operator's pause is a stop the operator chose, not something gone wrong: amber, not red.
  const paused = /\bpaused\b/i.test(why);
  const word = paused ? 'paused' : 'blocked';
  return {
    id: word,
    kind: paused ? 'checkpoint' : 'escalation',
    state: 'pending',
    since,
    grantable: false,
    title: n !== null ? `Phase ${n} ${word}${at}: ${why}` : `${paused ? 'Paused' : 'Blocked'}${at}: ${why}`,
    file,
    body: [why, ...context].join('\n'),
  };
}
