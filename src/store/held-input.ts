/**
 * What a held permission request would approve, from its JSON (Claude Code's PermissionRequest
 * input: `tool_name`, `tool_input`): the tool's real input, parsed, never a pattern on raw JSON.
 * The line the dialog shows is the input's first field that says what runs or is touched (the
 * command, the file path, the URL); the model-written `description` never stands in for it. A line
 * cut to fit is marked, and the whole input is kept for reading (`v`). Input that cannot be shown as
 * it is (bytes that are no JSON, characters that would be hidden or reordered) is unreadable: tower
 * then does not answer through the hook, and the agent's own dialog answers.
 */
import { escapeInvisible, sanitize } from '../text/sanitize.js';

/** The longest line the dialog shows of a request's input; the rest is one key away. */
export const SUBJECT_CHARS = 200;
/** The mark a cut line ends with. */
export const CUT_MARK = '… (cut: v shows the whole input)';

/** The fields that say what a tool runs or touches, the first found leading (Claude Code's tool inputs). */
const SUBJECT_FIELDS = ['command', 'file_path', 'notebook_path', 'url', 'path', 'pattern', 'query', 'prompt'];

/**
 * The two fields read, checked by hand rather than with zod: held requests are read by `tower status`,
 * whose whole start path is budgeted at ~276 KB, and zod alone is ~750 KB of it (scripts/start-paths.js).
 */
function requestOf(raw: unknown): { tool: string; input: Record<string, unknown> } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { tool_name: tool, tool_input: input } = raw as Record<string, unknown>;
  if (typeof tool !== 'string' || tool.length === 0 || tool.length > 200) return null;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  return { tool, input: input as Record<string, unknown> };
}

export interface HeldInput {
  tool: string;
  /**
   * The line the dialog shows: the main field's value on one line (`↵` for a newline), cut and
   * marked, then the names of other text fields (`(+ content)`).
   */
  subject: string;
  /** Whether `subject` was cut (the whole input is then one key away). */
  cut: boolean;
  /** The whole input, `name: value` per field, for reading before answering. */
  whole: string;
}

// C0/C1 controls other than newline and tab, bidi controls and zero-width characters: a terminal
// would hide, move or act on them, so what is shown would not be what runs.
const UNSHOWABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

function asBlock(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A request's JSON read into what it would approve, or why it cannot be shown whole. */
export function readHeldInput(json: string): HeldInput | { unreadable: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { unreadable: 'its JSON does not parse (cut short, or not JSON)' };
  }
  const parsed = requestOf(raw);
  if (!parsed) return { unreadable: 'it names no tool and its input' };
  const { tool, input } = parsed;
  const fields = Object.entries(input).map(([name, value]) => ({ name, text: asBlock(value) }));
  const bad = fields.find((f) => UNSHOWABLE.test(f.text) || UNSHOWABLE.test(f.name));
  if (bad || UNSHOWABLE.test(tool))
    return {
      unreadable: `its ${bad ? `"${escapeInvisible(sanitize(bad.name))}"` : 'tool name'} holds characters a terminal would hide or act on`,
    };
  const main =
    SUBJECT_FIELDS.map((name) => fields.find((f) => f.name === name && typeof input[name] === 'string')).find(
      (f) => f !== undefined,
    ) ?? null;
  // No field says what runs: the input itself (without the model's description) is the line.
  const rest = Object.fromEntries(Object.entries(input).filter(([name]) => name !== 'description'));
  const line = (main ? main.text : JSON.stringify(rest)).replace(/\r?\n/g, ' ↵ ').replace(/\t/g, ' ');
  const cut = [...line].length > SUBJECT_CHARS;
  // Other fields that change what happens (a file's new content) are named after the line.
  const others = main ? Object.keys(rest).filter((n) => n !== main.name && typeof input[n] === 'string') : [];
  const more = others.length > 0 ? ` (+ ${others.join(', ')})` : '';
  const subject = (cut ? [...line].slice(0, SUBJECT_CHARS).join('') + CUT_MARK : line) + more;
  const whole = fields
    .map((f) => (f.text.includes('\n') ? `${f.name}:\n${f.text}` : `${f.name}: ${f.text}`))
    .join('\n')
    .replace(/\t/g, '  ');
  return { tool, subject, cut, whole };
}
