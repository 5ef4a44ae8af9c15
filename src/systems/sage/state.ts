/**
 * SAGE state files, all shapes the project writes, normalized to one view: the nested
 * `<epic_id>.json` checkpoint (seed 002), the flat `current-checkpoint.json` of checkpoint-write.sh,
 * the run-epic orchestrator state, and the create-epic workflow's `epic-<id>-state.json`
 * (workflows/core/epic/create-epic/state-schema.json), and the `checkpoint.json` of the
 * phase-protocol scripts (scripts/phase-protocols/*-phase.sh). `checkpoint.json` may be any of
 * them: shapes are told apart by keys. Those scripts also write `session.json`, `{session_id,
 * started}`, which is no state of its own (parseSageSession).
 */
import type { Problem } from '../../model/model.js';
import { asText, sanitizeLine } from '../../text/sanitize.js';
import { cleanProblem, parseJson } from '../../files/read.js';
import { isObject, toMs } from '../../files/values.js';

export type SageShape = 'nested' | 'flat' | 'run-epic' | 'create-epic' | 'phase-protocol';

/** A story or task as the control room lists it. */
export interface SageStory {
  storyId: string;
  status: string;
}

/** The current unit of work. */
export interface SageCurrent {
  storyId: string;
  taskIndex: string | null;
  taskTotal: string | null;
  /** plan | implement | test | review (nested), the phase (run-epic), or null. */
  step: string | null;
}

/** One SAGE state file, whatever its shape. Every string is sanitized. */
export interface SageState {
  shape: SageShape;
  epicId: string | null;
  /** The file's own "updated" time in ms (`updated`, `updated_at`, `last_updated`), when parseable. */
  updatedMs: number | null;
  /** `lifecycle.phase_name` or `lifecycle.phase` (nested), `phase` (flat, run-epic). */
  phase: string | null;
  /** `epic.status` (nested), `status` (flat), derived for run-epic (in_progress | error | done). */
  status: string | null;
  nextAction: { type: string | null; description: string | null } | null;
  current: SageCurrent | null;
  completed: SageStory[];
  /** Whether the file says every story is done. */
  allStoriesDone: boolean;
  /** run-epic's `error`, when set. */
  error: string | null;
  /** Every story of the epic with its title (create-epic's `stories[]`); empty for other shapes. */
  stories: { storyId: string; title: string | null; status: string; dependsOn: string[] }[];
}

function text(v: unknown): string | null {
  const t = asText(v);
  return t === null || t.trim() === '' ? null : t.trim();
}

/** Like toMs, but only for strings that start like a date (Date.parse reads "foo 1" as 2001). */
function stampMs(v: unknown): number | null {
  if (typeof v === 'string' && !/^\s*(\d{4}-\d{2}-\d{2}(?:[T ]|\s*$)|\d+\s*$)/.test(v)) return null;
  return toMs(v);
}

function count(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** Which shape an object is, by its keys; null when it is none of them. */
export function sageShapeOf(v: Record<string, unknown>): SageShape | null {
  // Before the flat shape: create-epic's state has an `epic_id` too.
  if (v.workflow_name === 'create-epic' || (Array.isArray(v.stories) && 'current_phase' in v)) return 'create-epic';
  if (Array.isArray(v.story_queue) || 'current_story_index' in v) return 'run-epic';
  if (isObject(v.next_action) || isObject(v.epic) || isObject(v.lifecycle) || isObject(v.current)) return 'nested';
  if (typeof v.phase === 'string' && PHASE_PROTOCOL_KEYS.some((k) => k in v)) return 'phase-protocol';
  if ('epic_id' in v || 'story_id' in v || 'task_index' in v) return 'flat';
  return null;
}

/**
 * What the phase-protocol scripts add to `checkpoint.json`, phase by phase (init-phase.sh:
 * `{phase, initialized, timestamp}`, planning: `story_created, story_file`, implementation:
 * `branch_created, code_committed`, validation: `tests_passed`, complete: `branch_merged,
 * story_status`), over whatever state was piped in (`epic_num`, `story_key`, …).
 */
const PHASE_PROTOCOL_KEYS = [
  'initialized',
  'story_created',
  'branch_created',
  'code_committed',
  'tests_passed',
  'branch_merged',
] as const;

/** The session `init-phase.sh` opens in `session.json` (complete-phase.sh removes it). */
export interface SageSession {
  sessionId: string;
  startedMs: number | null;
}

/** `session.json` of the phase-protocol scripts, `{session_id, started}`, or null for anything else. */
export function parseSageSession(v: unknown): SageSession | null {
  if (!isObject(v) || 'phase' in v) return null;
  const id = text(v.session_id);
  return id === null ? null : { sessionId: id, startedMs: stampMs(v.started) };
}

function nested(v: Record<string, unknown>): SageState {
  const epic = isObject(v.epic) ? v.epic : {};
  const life = isObject(v.lifecycle) ? v.lifecycle : {};
  const cur = isObject(v.current) ? v.current : null;
  const next = isObject(v.next_action) ? v.next_action : null;
  const storyId = cur ? text(cur.story_id) : null;
  const total = count(epic.stories_total);
  const done = count(epic.stories_complete);
  const completed: SageStory[] = [];
  for (const c of Array.isArray(v.completed) ? v.completed : []) {
    const id = isObject(c) ? text(c.story_id) : text(c);
    if (id !== null) completed.push({ storyId: id, status: (isObject(c) ? text(c.status) : null) ?? 'done' });
  }
  return {
    shape: 'nested',
    epicId: text(epic.id),
    updatedMs: stampMs(v.updated),
    phase: text(life.phase_name) ?? text(life.phase),
    status: text(epic.status),
    nextAction: next ? { type: text(next.type), description: text(next.description) } : null,
    current:
      cur && storyId !== null
        ? { storyId, taskIndex: text(cur.task_index), taskTotal: text(cur.task_total), step: text(cur.step) }
        : null,
    completed,
    allStoriesDone: total !== null && total > 0 && done !== null && done >= total,
    error: null,
    stories: [],
  };
}

function flat(v: Record<string, unknown>): SageState {
  const storyId = text(v.story_id);
  const status = text(v.status);
  return {
    shape: 'flat',
    epicId: text(v.epic_id),
    updatedMs: stampMs(v.updated_at) ?? stampMs(v.started_at),
    phase: text(v.phase),
    status,
    nextAction: null,
    current: storyId !== null ? { storyId, taskIndex: text(v.task_index), taskTotal: null, step: null } : null,
    completed: [],
    allStoriesDone: status !== null && ['complete', 'completed', 'done'].includes(status.toLowerCase()),
    error: null,
    stories: [],
  };
}

function runEpic(v: Record<string, unknown>): SageState {
  const queue = Array.isArray(v.story_queue) ? v.story_queue.map(text).filter((s): s is string => s !== null) : [];
  const index = count(v.current_story_index);
  const phase = text(v.phase);
  const error = text(v.error);
  const storyId = text(v.current_story) ?? (index !== null ? (queue[index] ?? null) : null);
  const chunks = Array.isArray(v.chunk_queue) ? v.chunk_queue.length : null;
  const chunk = count(v.current_chunk_index);
  const completed: SageStory[] = [];
  for (const s of Array.isArray(v.completed_stories) ? v.completed_stories : []) {
    const id = text(s);
    if (id !== null) completed.push({ storyId: id, status: 'done' });
  }
  for (const f of Array.isArray(v.failed_stories) ? v.failed_stories : []) {
    const id = isObject(f) ? text(f.story_id) : text(f);
    if (id !== null) completed.push({ storyId: id, status: 'failed' });
  }
  const finished = phase === 'done' || (queue.length > 0 && index !== null && index >= queue.length);
  return {
    shape: 'run-epic',
    epicId: text(v.epic_id),
    updatedMs: stampMs(v.last_updated),
    phase,
    status: finished ? 'done' : error !== null ? 'error' : 'in_progress',
    nextAction: null,
    current:
      storyId !== null && !finished
        ? {
            storyId,
            taskIndex: chunk !== null ? String(chunk + 1) : null,
            taskTotal: chunks !== null ? String(chunks) : null,
            step: phase,
          }
        : null,
    completed,
    allStoriesDone: finished,
    error,
    stories: [],
  };
}

/** create-epic's `epic-<id>-state.json`: the workflow phase (init … complete) and the stories it creates. */
function createEpic(v: Record<string, unknown>): SageState {
  const phase = text(v.current_phase);
  const stories: SageState['stories'] = [];
  for (const s of Array.isArray(v.stories) ? v.stories : []) {
    if (!isObject(s)) continue;
    const id = text(s.story_key);
    if (id === null) continue;
    const error = text(s.error);
    const deps = Array.isArray(s.dependencies) ? s.dependencies.map(text).filter((d): d is string => d !== null) : [];
    stories.push({
      storyId: id,
      title: text(s.story_title) ?? error,
      status: text(s.status) ?? 'pending',
      dependsOn: deps,
    });
  }
  const done = phase === 'complete';
  return {
    shape: 'create-epic',
    epicId: text(v.epic_id),
    updatedMs: stampMs(v.end_time),
    phase,
    status: done ? 'complete' : 'in_progress',
    nextAction: null,
    current: null,
    completed: [],
    allStoriesDone: done,
    error: null,
    stories,
  };
}

/** The phase-protocol scripts' `checkpoint.json`: the phase (init … complete) and the story it works on. */
function phaseProtocol(v: Record<string, unknown>): SageState {
  const phase = text(v.phase);
  const storyFile = text(v.story_file);
  const storyId =
    text(v.story_key) ??
    text(v.story_id) ??
    (storyFile !== null ? storyFile.replace(/^.*\//, '').replace(/\.md$/, '') : null);
  const epicNum = text(v.epic_num);
  const done = phase === 'complete' || text(v.story_status) === 'done';
  return {
    shape: 'phase-protocol',
    // planning-phase.sh files the story under docs/sprint-artifacts/epic-<n>/sprint-<m>/.
    epicId:
      text(v.epic_id) ??
      (epicNum !== null ? `epic-${epicNum}` : (/(?:^|\/)(epic-[^/]+)\//.exec(storyFile ?? '')?.[1] ?? null)),
    updatedMs: stampMs(v.timestamp),
    phase,
    status: done ? 'complete' : 'in_progress',
    nextAction: null,
    current: storyId !== null && !done ? { storyId, taskIndex: null, taskTotal: null, step: phase } : null,
    completed: storyId !== null && done ? [{ storyId, status: 'done' }] : [],
    allStoriesDone: done,
    error: null,
    stories: [],
  };
}

/** Normalizes the parsed JSON of a SAGE state file; an object of no known shape is a problem. */
export function parseSageState(value: unknown, file: string): { value: SageState | null; problems: Problem[] } {
  if (!isObject(value)) return { value: null, problems: [{ file, message: 'expected a JSON object' }] };
  const shape = sageShapeOf(value);
  if (shape === null) {
    const keys = Object.keys(value)
      .slice(0, 5)
      .map((k) => sanitizeLine(k).slice(0, 30));
    return { value: null, problems: [{ file, message: `not a SAGE checkpoint (keys: ${keys.join(', ') || 'none'})` }] };
  }
  const state =
    shape === 'nested'
      ? nested(value)
      : shape === 'flat'
        ? flat(value)
        : shape === 'create-epic'
          ? createEpic(value)
          : shape === 'phase-protocol'
            ? phaseProtocol(value)
            : runEpic(value);
  return { value: state, problems: [] };
}

/** `parseSageState` on raw text: empty, truncated or template (`$task_index`) JSON is a problem. */
export function parseSageStateText(raw: string, file: string): { value: SageState | null; problems: Problem[] } {
  const json = parseJson(file, raw);
  if (!json.ok) return { value: null, problems: [cleanProblem(json.problem)] };
  return parseSageState(json.value, file);
}
