/**
 * tina's JSON state files, parsed without touching the disk: supervisor-state.json, phase-N/status.json,
 * checkpoint-needed, context-metrics.json and the tina-sessions registry. Older files name keys differently;
 * each parser reads whichever name is there.
 */
import path from 'node:path';
import type { Problem, Review } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { parseJson } from '../../files/read.js';
import { isObject, toIso } from '../../files/values.js';
import { parseReviewVerdicts } from './reviews.js';

/** One entry of supervisor-state `phases`. */
export interface SupervisorPhase {
  status: string | null;
  blockedReason: string | null;
  blockedAt: string | null;
  /** The phase's `review_verdicts`, normalized. */
  reviews: Review[];
}

/** What tower needs of supervisor-state.json. */
export interface SupervisorState {
  feature: string | null;
  /** The current phase as tina names it ("2", "2.5", "0" before the first phase). */
  currentPhase: string | null;
  totalPhases: number | null;
  /** The orchestration status word, lowercased; older files have none. */
  status: string | null;
  blockedReason: string | null;
  /** By phase key as written ("1", "2.5"); a Map, so keys like "__proto__" are plain keys. */
  phases: Map<string, SupervisorPhase>;
}

/** What tower needs of phase-N/status.json. */
export interface PhaseStatus {
  status: string | null;
  startedAt: string | null;
  completedAt: string | null;
  blockedAt: string | null;
  reason: string | null;
  /** The `context` object of a blocked phase as `key: value` lines. */
  contextLines: string[];
  heartbeatAt: string | null;
  /** The gate the phase stopped at, as the status file names it (`gate`). */
  gate: string | null;
}

/** The checkpoint-needed signal; every field is null for the empty file the seeds describe. */
export interface CheckpointSignal {
  triggeredAt: string | null;
  contextPct: number | null;
  threshold: number | null;
  source: string | null;
}

/** context-metrics.json as written by tina's statusline. */
export interface ContextMetrics {
  usedPct: number;
  timestamp: string | null;
}

type Parsed<K extends string, T> = { [P in K]: T } & { problems: Problem[] };

function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const s = sanitizeLine(v).trim();
  return s === '' ? null : s;
}

function word(v: unknown): string | null {
  const s = text(v);
  return s === null ? null : s.toLowerCase();
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v.trim().replace(/%$/, '')))) {
    return Number(v.trim().replace(/%$/, ''));
  }
  return null;
}

function pick(obj: Record<string, unknown>, keys: string[]): unknown {
  for (const k of keys) if (obj[k] !== undefined && obj[k] !== null) return obj[k];
  return undefined;
}

/** A timestamp field as ISO, with a problem when present but unparseable. */
function time(obj: Record<string, unknown>, keys: string[], file: string, problems: Problem[]): string | null {
  const raw = pick(obj, keys);
  if (raw === undefined) return null;
  const iso = toIso(raw);
  if (iso === null) {
    // JSON.stringify, not String(): a parsed object may carry a "toString" key that is not a function.
    const shown = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
    problems.push({ file, message: `${keys[0]} "${sanitizeLine(shown).slice(0, 40)}" is not a date` });
  }
  return iso;
}

/** Parses supervisor-state.json (current `.claude/tina/` and older `.tina/` shapes). */
export function parseSupervisorState(json: unknown, file: string): Parsed<'state', SupervisorState | null> {
  if (!isObject(json)) return { state: null, problems: [{ file, message: 'supervisor state is not a JSON object' }] };
  const known = [
    'feature',
    'feature_name',
    'featureName',
    'current_phase',
    'currentPhase',
    'phase',
    'phases',
    'status',
    'state',
    'total_phases',
    'totalPhases',
  ];
  if (!known.some((k) => k in json)) {
    return {
      state: null,
      problems: [
        {
          file,
          message: 'unrecognised shape: none of feature, current_phase, phases, status (not a tina supervisor state?)',
        },
      ],
    };
  }
  const problems: Problem[] = [];
  const phases = new Map<string, SupervisorPhase>();
  const rawPhases = json.phases;
  const addPhase = (key: string, entry: unknown): void => {
    if (!isObject(entry)) {
      problems.push({ file, message: `phase ${key} is not an object` });
      return;
    }
    const verdicts = parseReviewVerdicts(entry.review_verdicts ?? entry.reviewVerdicts, file, key);
    problems.push(...verdicts.problems);
    phases.set(key, {
      status: word(entry.status),
      blockedReason: text(pick(entry, ['blocked_reason', 'reason'])),
      blockedAt: time(entry, ['blocked_at'], file, problems),
      reviews: verdicts.reviews,
    });
  };
  if (isObject(rawPhases)) {
    for (const [key, entry] of Object.entries(rawPhases)) addPhase(sanitizeLine(key), entry);
  } else if (Array.isArray(rawPhases)) {
    rawPhases.forEach((entry, i) => {
      const named = isObject(entry) ? text(pick(entry, ['phase', 'number'])) : null;
      addPhase(named ?? String(i + 1), entry);
    });
  } else if (rawPhases !== undefined && rawPhases !== null) {
    problems.push({ file, message: '"phases" is neither an object nor a list' });
  }
  const current = text(pick(json, ['current_phase', 'currentPhase', 'phase']));
  const total = num(pick(json, ['total_phases', 'totalPhases', 'phase_count']));

  return {
    state: {
      feature: text(pick(json, ['feature', 'feature_name', 'featureName'])),
      currentPhase: current,
      totalPhases: total,
      status: word(pick(json, ['status', 'state'])),
      blockedReason: text(pick(json, ['blocked_reason', 'reason'])),
      phases,
    },
    problems,
  };
}

/** `key: value` lines of a context object (values that are lists or objects as compact JSON). */
function contextLines(ctx: unknown): string[] {
  if (typeof ctx === 'string') return [sanitizeLine(ctx)];
  if (!isObject(ctx)) return [];
  return Object.entries(ctx).map(([k, v]) => {
    const value = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
    return sanitizeLine(`${k}: ${value}`).slice(0, 300);
  });
}

/** Parses phase-N/status.json. */
export function parsePhaseStatus(json: unknown, file: string): Parsed<'status', PhaseStatus | null> {
  if (!isObject(json)) return { status: null, problems: [{ file, message: 'phase status is not a JSON object' }] };
  const problems: Problem[] = [];
  if (!['status', 'started_at', 'completed_at', 'blocked_at', 'heartbeat_at', 'heartbeat'].some((k) => k in json)) {
    problems.push({
      file,
      message: 'unrecognised shape: no status, started_at or heartbeat_at (not a tina phase status?)',
    });
  }
  return {
    status: {
      status: word(json.status),
      startedAt: time(json, ['started_at'], file, problems),
      completedAt: time(json, ['completed_at'], file, problems),
      blockedAt: time(json, ['blocked_at'], file, problems),
      reason: text(pick(json, ['reason', 'blocked_reason', 'message'])),
      contextLines: contextLines(json.context),
      heartbeatAt: time(json, ['heartbeat_at', 'heartbeat'], file, problems),
      gate: text(json.gate),
    },
    problems,
  };
}

/** Parses checkpoint-needed: one JSON line, or empty (the signal is the file itself). */
export function parseCheckpointSignal(content: string, file: string): Parsed<'signal', CheckpointSignal> {
  const signal: CheckpointSignal = { triggeredAt: null, contextPct: null, threshold: null, source: null };
  const problems: Problem[] = [];
  const trimmed = content.trim();
  if (trimmed === '') return { signal, problems };
  // The whole file first; a file appended to twice holds one object per line, the last one counts.
  let read = parseJson(file, trimmed);
  if (!read.ok) read = parseJson(file, trimmed.split('\n').pop() ?? '');
  if (!read.ok || !isObject(read.value)) {
    problems.push({ file, message: 'checkpoint-needed is not a JSON object; read as a bare signal' });
    return { signal, problems };
  }
  const obj = read.value;
  signal.triggeredAt = time(obj, ['triggered_at', 'timestamp', 'created_at'], file, problems);
  signal.contextPct = num(pick(obj, ['context_pct', 'used_pct']));
  signal.threshold = num(obj.threshold);
  signal.source = text(obj.source);
  return { signal, problems };
}

/** Parses context-metrics.json; `used_pct` or, failing that, tokens / max. */
export function parseContextMetrics(json: unknown, file: string): Parsed<'metrics', ContextMetrics | null> {
  if (!isObject(json)) return { metrics: null, problems: [{ file, message: 'context metrics are not a JSON object' }] };
  const problems: Problem[] = [];
  let used = num(json.used_pct);
  const tokens = num(json.tokens);
  const max = num(json.max);
  if (used === null && tokens !== null && max !== null && max > 0) used = Math.round((tokens / max) * 100);
  if (used === null) return { metrics: null, problems: [{ file, message: 'context metrics have no used_pct' }] };
  return { metrics: { usedPct: used, timestamp: time(json, ['timestamp'], file, problems) }, problems };
}

/** Parses one `tina-sessions/<feature>.json` entry into the absolute worktree path it registers. */
export function parseSessionEntry(json: unknown, file: string): Parsed<'root', string | null> {
  if (!isObject(json)) return { root: null, problems: [{ file, message: 'session entry is not a JSON object' }] };
  const raw = pick(json, ['worktree_path', 'worktree', 'worktreePath', 'path', 'cwd']);
  if (typeof raw !== 'string' || raw.trim() === '') {
    return { root: null, problems: [{ file, message: 'session entry names no worktree path' }] };
  }
  // A path is used as a path, never altered: one with control characters is refused instead.
  const unsafe = (p: string): boolean => sanitizeLine(p) !== p;
  if (unsafe(raw)) return { root: null, problems: [{ file, message: 'worktree path contains control characters' }] };
  if (path.isAbsolute(raw)) return { root: path.normalize(raw), problems: [] };
  const repoRoot = pick(json, ['repo_root', 'repoRoot']);
  if (typeof repoRoot === 'string' && path.isAbsolute(repoRoot) && !unsafe(repoRoot)) {
    return { root: path.resolve(repoRoot, raw), problems: [] };
  }
  return {
    root: null,
    problems: [
      { file, message: `worktree path "${sanitizeLine(raw).slice(0, 80)}" is relative and repo_root is not absolute` },
    ],
  };
}
