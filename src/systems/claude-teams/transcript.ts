/**
 * How full an agent's context is, from its Claude Code transcript:
 * `<claude dir>/projects/<cwd with / . \ : as ->/<session id>.jsonl`, one JSON record per line. The
 * context in use is the last assistant turn's input: `message.usage.input_tokens` +
 * `cache_creation_input_tokens` + `cache_read_input_tokens`, against the window Claude Code uses for
 * the turn's model and the session (modelWindow); tokens used add up `usage` once per
 * message id (Claude Code writes one line per content block, each repeating the usage). Lines of
 * model `<synthetic>` (API errors, usage zero) are passed over.
 *
 * Transcripts reach tens of MB: only the tail is read the first time (TAIL_BYTES), then only what was
 * appended since, and a file that shrank is read from its tail again. Never the whole file per read.
 */
import path from 'node:path';
import { LineFollower } from '../../files/follow.js';
import { isObject } from '../../files/values.js';

/** Claude's context window unless its model or session says otherwise, or a turn shows more in use. */
export const DEFAULT_WINDOW = 200_000;
const LARGE_WINDOW = 1_000_000;
/**
 * Models whose window is 1M tokens with no opt-in, as Claude Code 2.1.332's own model list says
 * (`context.window: 1e6`, `native_1m`); it reports `context_window_size: 1000000` for them to a
 * status line. Every other model there has 200k unless the session opts in to 1M.
 */
const NATIVE_1M = new Set([
  'claude-haiku-5-5',
  'claude-sonnet-5',
  'claude-sonnet-5-5',
  'claude-opus-4-7',
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-opus-5-5',
  'claude-fable-5',
  'claude-fable-5-1',
  'claude-fable-5-2',
  'claude-mythos-5',
  'claude-mythos-5-1',
  'claude-mythos-5-2',
]);

/**
 * The window Claude Code uses for a model: 1M for a model that has it natively, or an id carrying
 * the `[1m]` tag; 200k for another Claude model; null for one it does not know.
 */
export function modelWindow(model: string): number | null {
  if (/\[1m\]$/i.test(model)) return LARGE_WINDOW;
  const id = model.replace(/-\d{8}$/, '');
  if (NATIVE_1M.has(id)) return LARGE_WINDOW;
  return id.startsWith('claude-') ? DEFAULT_WINDOW : null;
}
/** What is read of a transcript seen for the first time (or rewritten): its last bytes. */
export const TAIL_BYTES = 512 * 1024;
/** The most read at once of what was appended since the last read. */
const STEP_BYTES = 4 * 1024 * 1024;
/** Transcripts followed at once; the oldest is forgotten past this. */
const MAX_FOLLOWED = 2000;
/** Message ids remembered per transcript to count each message's usage once. */
const MAX_IDS = 512;

export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface TranscriptUsage {
  /** Tokens of context in use at the last assistant turn, and the window they fill. */
  used: number;
  window: number;
  usedPct: number;
  /** Added up over what tower has read of the transcript. */
  tokens: TokenTotals;
}

interface Followed {
  lines: LineFollower;
  used: number | null;
  /** The model of the last assistant turn. */
  model: string | null;
  /** The session asked for the 1M window (a `context-1m` beta on its requests). */
  oneM: boolean;
  tokens: TokenTotals;
  ids: string[];
}

const NO_TOKENS: TokenTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const followed = new Map<string, Followed>();

/** The transcript of session `sessionId` run in `cwd`. */
export function transcriptFile(claudeDir: string, cwd: string, sessionId: string): string {
  return path.join(claudeDir, 'projects', cwd.replace(/[/.\\:]/g, '-'), `${sessionId}.jsonl`);
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

/**
 * A request the CLI recorded (`"type":"api-request"`) names its betas: a `context-1m` one opts the session in
 * to 1M.
 */
const ONE_M_BETA = /"betas":\[[^\]]{0,2000}"context-1m-/;

function take(state: Followed, line: string): void {
  if (line.startsWith('{"type":"api-request"')) {
    if (ONE_M_BETA.test(line)) state.oneM = true;
    return;
  }
  if (!line.includes('"assistant"') || !line.includes('usage')) return;
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return;
  }
  if (!isObject(rec) || rec.type !== 'assistant' || !isObject(rec.message)) return;
  const msg = rec.message;
  if (msg.model === '<synthetic>' || !isObject(msg.usage)) return;
  const u = msg.usage;
  const input = num(u.input_tokens);
  const cacheWrite = num(u.cache_creation_input_tokens);
  const cacheRead = num(u.cache_read_input_tokens);
  state.used = input + cacheWrite + cacheRead;
  if (typeof msg.model === 'string' && msg.model.length < 100) state.model = msg.model;
  const id = typeof msg.id === 'string' ? msg.id : typeof rec.requestId === 'string' ? rec.requestId : null;
  if (id !== null && state.ids.includes(id)) return;
  if (id !== null) {
    state.ids.push(id);
    if (state.ids.length > MAX_IDS) state.ids.shift();
  }
  state.tokens = {
    input: state.tokens.input + input,
    output: state.tokens.output + num(u.output_tokens),
    cacheRead: state.tokens.cacheRead + cacheRead,
    cacheWrite: state.tokens.cacheWrite + cacheWrite,
  };
}

/** The usage a transcript shows now, or null when it is missing or holds no assistant turn yet. Never throws. */
export function transcriptUsage(file: string): TranscriptUsage | null {
  let state = followed.get(file);
  if (!state) {
    if (followed.size >= MAX_FOLLOWED) followed.delete(followed.keys().next().value!);
    state = {
      lines: new LineFollower(file, TAIL_BYTES, STEP_BYTES),
      used: null,
      model: null,
      oneM: false,
      tokens: NO_TOKENS,
      ids: [],
    };
    followed.set(file, state);
  }
  const read = state.lines.read();
  if (!read) {
    followed.delete(file);
    return null;
  }
  if (read.fresh) Object.assign(state, { used: null, model: null, oneM: false, tokens: NO_TOKENS, ids: [] });
  for (const line of read.lines) take(state, line);
  if (state.used === null) return null;
  const known = state.oneM ? LARGE_WINDOW : state.model === null ? null : modelWindow(state.model);
  // A turn past the window it was given says the window is larger (an opt-in tower did not see).
  const window = state.used > (known ?? DEFAULT_WINDOW) ? LARGE_WINDOW : (known ?? DEFAULT_WINDOW);
  return { used: state.used, window, usedPct: Math.round((state.used / window) * 100), tokens: { ...state.tokens } };
}
