/**
 * Review verdicts as tina records them, normalized: the handoff's review tracking and the supervisor's
 * `review_verdicts` name the same facts in several ways ("task-3" or "3", spec_review or spec-review, pass or
 * approved).
 */
import type { Problem, Review, ReviewVerdict } from '../../model/model.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { compareIds } from '../claude-teams/tasks.js';
import { isObject } from '../../files/values.js';

const PASSED_WORDS = ['passed', 'pass', 'approved', 'approve', 'accepted', 'ok', 'lgtm', 'success', 'succeeded'];
const FAILED_WORDS = ['failed', 'fail', 'rejected', 'reject', 'changes_requested', 'gaps', 'needs_changes'];
const PENDING_WORDS = ['pending', 'waiting', 'requested', 'in_progress', 'running', 'todo', 'not_started', 'queued'];

function word(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** approved/pass → passed; rejected/fail/changes_requested → failed; anything else → pending. */
export function normalizeVerdict(raw: unknown): ReviewVerdict {
  if (typeof raw === 'boolean') return raw ? 'passed' : 'failed';
  if (typeof raw !== 'string') return 'pending';
  const w = word(raw);
  if (PASSED_WORDS.includes(w)) return 'passed';
  if (FAILED_WORDS.includes(w)) return 'failed';
  return 'pending';
}

/** Whether a word is one a reviewer writes as a verdict (so "not yet reviewed" is not mistaken for one). */
export function isVerdictWord(raw: string): boolean {
  const w = word(raw);
  return PASSED_WORDS.includes(w) || FAILED_WORDS.includes(w) || PENDING_WORDS.includes(w);
}

/** "spec_review", "Spec review" → spec-review; "quality_review", "code-quality" → code-quality; others as written. */
export function normalizeKind(raw: string): string {
  const clean = sanitizeLine(raw).trim();
  const k = clean.toLowerCase().replace(/[\s_]+/g, '-');
  if (/^spec(-review(er)?)?$/.test(k)) return 'spec-review';
  if (/^(code-)?quality(-review(er)?)?$/.test(k) || k === 'code-quality-review' || k === 'code-review')
    return 'code-quality';
  if (/^phase(-review)?$/.test(k)) return 'phase-review';
  return clean;
}

/** "task-3", "Task 3", "#3" → "3". */
export function normalizeTaskId(raw: unknown): string {
  const s = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : typeof raw === 'string' ? raw : '';
  return sanitizeLine(s)
    .trim()
    .replace(/^task[\s_-]*/i, '')
    .replace(/^#/, '')
    .trim();
}

/** Keys of a per-task verdict object that hold a verdict, and the kind each names. */
function kindOfKey(key: string): string | null {
  const k = key.toLowerCase().replace(/[\s-]+/g, '_');
  if (k === 'worker' || k === 'reviewer' || k === 'notes' || k.endsWith('_reviewer')) return null;
  if (k === 'spec' || k === 'spec_review') return 'spec-review';
  if (k === 'quality' || k === 'quality_review' || k === 'code_quality' || k === 'code_quality_review') {
    return 'code-quality';
  }
  if (k.endsWith('_review')) {
    const kind = normalizeKind(k);
    return kind === k ? k.replace(/_/g, '-') : kind;
  }
  return null;
}

function reviewerOf(obj: Record<string, unknown>, kind: string): string | null {
  const specific =
    kind === 'spec-review' ? obj.spec_reviewer : kind === 'code-quality' ? obj.quality_reviewer : undefined;
  const name = typeof specific === 'string' ? specific : typeof obj.reviewer === 'string' ? obj.reviewer : '';
  const clean = sanitizeLine(name).trim();
  return clean === '' ? null : clean;
}

/**
 * Reviews from a `review_verdicts` value: an object keyed by task id (value a verdict or
 * `{spec_review, quality_review, worker}`), or a list of `{taskId|task, kind, verdict, reviewer}`.
 * List entries with no task but a `result` are phase reviews (tina's consensus verdicts, "pass" or "gaps").
 */
export function parseReviewVerdicts(
  value: unknown,
  file: string,
  phase: string | null,
): { reviews: Review[]; problems: Problem[] } {
  const reviews: Review[] = [];
  const problems: Problem[] = [];
  if (value === undefined || value === null) return { reviews, problems };
  const phaseName = phase === null ? null : sanitizeLine(phase).trim() || null;
  if (Array.isArray(value)) {
    value.forEach((entry, i) => {
      const r = listEntry(entry, phaseName);
      if (r) reviews.push(r);
      else problems.push({ file, message: `review verdict ${i + 1} names no verdict` });
    });
  } else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      const taskId = normalizeTaskId(key);
      if (taskId === '') continue;
      if (typeof v === 'string' || typeof v === 'boolean') {
        reviews.push({ taskId, kind: 'review', verdict: normalizeVerdict(v), reviewer: null });
      } else if (isObject(v)) {
        reviews.push(...taskEntry(taskId, v));
      } else {
        problems.push({ file, message: `review verdict for task ${taskId} is neither a word nor an object` });
      }
    }
  } else {
    problems.push({ file, message: 'review verdicts are neither an object nor a list' });
  }
  return { reviews: dedupeReviews(reviews), problems };
}

function taskEntry(taskId: string, obj: Record<string, unknown>): Review[] {
  if ('verdict' in obj || 'result' in obj) {
    const kind = typeof obj.kind === 'string' ? normalizeKind(obj.kind) : 'review';
    return [{ taskId, kind, verdict: normalizeVerdict(obj.verdict ?? obj.result), reviewer: reviewerOf(obj, kind) }];
  }
  const out: Review[] = [];
  for (const [key, v] of Object.entries(obj)) {
    const kind = kindOfKey(key);
    if (kind === null || (typeof v !== 'string' && typeof v !== 'boolean')) continue;
    out.push({ taskId, kind, verdict: normalizeVerdict(v), reviewer: reviewerOf(obj, kind) });
  }
  return out;
}

function listEntry(entry: unknown, phase: string | null): Review | null {
  if (!isObject(entry)) return null;
  const verdictRaw = entry.verdict ?? entry.result ?? entry.status;
  if (verdictRaw === undefined) return null;
  const taskId = normalizeTaskId(entry.taskId ?? entry.task ?? entry.task_id);
  const kindRaw = entry.kind ?? entry.type;
  const phaseReview = taskId === '';
  const kind = typeof kindRaw === 'string' ? normalizeKind(kindRaw) : phaseReview ? 'phase-review' : 'review';
  return {
    taskId: phaseReview ? (phase === null ? 'phase' : `phase-${phase}`) : taskId,
    kind,
    verdict: normalizeVerdict(verdictRaw),
    reviewer: reviewerOf(entry, kind),
  };
}

function reviewKey(r: Review): string {
  return `${r.taskId}\u0000${r.kind}`;
}

/** One review per (task, kind), the last one written winning; sorted by task id then kind. */
export function dedupeReviews(reviews: Review[]): Review[] {
  const byKey = new Map<string, Review>();
  for (const r of reviews) byKey.set(reviewKey(r), r);
  const byKind = (a: Review, b: Review): number => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
  return [...byKey.values()].sort((a, b) => compareIds(a.taskId, b.taskId) || byKind(a, b));
}

/** Merges two sources of reviews; `primary` (the supervisor state) wins over `secondary` (the handoff). */
export function mergeReviews(primary: Review[], secondary: Review[]): Review[] {
  return dedupeReviews([...secondary, ...primary]);
}
