/**
 * How full a Codex agent's context is, from its rollout (`<CODEX_HOME>/sessions/YYYY/MM/DD/
 * rollout-<time>-<thread>.jsonl`, one JSON record per line). After each model response 0.169.0
 * writes an `event_msg` of type `token_count`: `info.last_token_usage` (the context the last request
 * filled: `input_tokens` with `cached_input_tokens` among them, and `output_tokens`),
 * `info.total_token_usage` (the thread's totals) and `info.model_context_window`. The newest one
 * says it all, so only the tail is read the first time and only what was appended after.
 *
 * The same records say whether a turn runs: `task_started` begins one, `task_complete` and
 * `turn_aborted` (an Esc, a denied command) end it. Nothing in a rollout marks a dialog waiting for
 * an approval: a turn that asks reads as running here (the app server and the screen say more).
 */
import { LineFollower } from '../../files/follow.js';
import { isObject } from '../../files/values.js';
import type { AgentUsage } from '../types.js';

/** What is read of a rollout the first time, from its end: token counts come after every response. */
const TAIL_BYTES = 256 * 1024;
const STEP_BYTES = 4 * 1024 * 1024;
/** Rollouts followed at once (the oldest goes first); a box runs tens of agents. */
const MAX_FOLLOWED = 2000;

/** Where a rollout says its thread is: in a turn, or between turns, since its record's time (epoch ms). */
export interface RolloutTurn {
  running: boolean;
  at: number | null;
}

interface Followed {
  lines: LineFollower;
  usage: AgentUsage | null;
  turn: RolloutTurn | null;
}

const followed = new Map<string, Followed>();
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/** The usage one `token_count` line says, or null when the line is another record or makes no sense. */
export function tokenCountUsage(line: string): AgentUsage | null {
  if (!line.includes('"token_count"')) return null;
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(rec) || rec.type !== 'event_msg' || !isObject(rec.payload)) return null;
  const p = rec.payload;
  if (p.type !== 'token_count' || !isObject(p.info)) return null;
  const { last_token_usage: last, total_token_usage: total, model_context_window: window } = p.info;
  if (!isObject(last) || !isObject(total) || num(window) === 0) return null;
  const used = num(last.input_tokens) + num(last.output_tokens);
  return {
    used,
    window: num(window),
    usedPct: Math.min(100, Math.round((used / num(window)) * 1000) / 10),
    tokens: {
      input: Math.max(0, num(total.input_tokens) - num(total.cached_input_tokens)),
      output: num(total.output_tokens),
      cacheRead: num(total.cached_input_tokens),
      cacheWrite: num(total.cache_write_input_tokens),
    },
  };
}

const TURN_EVENT = /"type":"(task_started|task_complete|turn_aborted)"/;

/** Whether one line begins or ends a turn, and when; null for any other record. */
export function turnEvent(line: string): RolloutTurn | null {
  const kind = TURN_EVENT.exec(line)?.[1];
  if (!kind) return null;
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(rec) || rec.type !== 'event_msg' || !isObject(rec.payload) || rec.payload.type !== kind) return null;
  const at = typeof rec.timestamp === 'string' ? Date.parse(rec.timestamp) : NaN;
  return { running: kind === 'task_started', at: Number.isFinite(at) ? at : null };
}

/** A rollout read up to now (what was appended since the last call), or null when it is missing. Never throws. */
function follow(file: string): Followed | null {
  let state = followed.get(file);
  if (!state) {
    if (followed.size >= MAX_FOLLOWED) followed.delete(followed.keys().next().value!);
    state = { lines: new LineFollower(file, TAIL_BYTES, STEP_BYTES), usage: null, turn: null };
    followed.set(file, state);
  }
  const read = state.lines.read();
  if (!read) {
    followed.delete(file);
    return null;
  }
  if (read.fresh) {
    state.usage = null;
    state.turn = null;
  }
  for (const line of read.lines) {
    state.usage = tokenCountUsage(line) ?? state.usage;
    state.turn = turnEvent(line) ?? state.turn;
  }
  return state;
}

/** The usage a rollout shows now, or null when it is missing or holds no token count yet. Never throws. */
export function rolloutUsage(file: string): AgentUsage | null {
  return follow(file)?.usage ?? null;
}

/**
 * What a rollout says now: its usage, and whether a turn runs (null when its tail holds no turn's
 * start or end). Null when the file is missing. Never throws.
 */
export function rolloutState(file: string): { usage: AgentUsage | null; turn: RolloutTurn | null } | null {
  const s = follow(file);
  return s ? { usage: s.usage, turn: s.turn } : null;
}
