/**
 * What a held permission request would approve, from its JSON (Claude Code's PermissionRequest
 * input: `tool_name`, `tool_input`): the tool's real input, parsed, never a pattern on raw JSON.
 * The line the dialog shows is the input's first field that says what runs or is touched (the
 * command, the file path, the URL); the model-written `description` never stands in for it. A line
 * cut to fit is marked, the fields it leaves out are named, and the whole input is kept for
 * reading (`v`), every field, hidden and look-alike characters written out. Input that cannot be shown as
 * it is (bytes that are no JSON, characters that would be hidden or reordered) is unreadable: tower
 * then does not answer through the hook, and the agent's own dialog answers.
 */
import type crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { commandLines } from '../text/command-parts.js';
import { escapeInvisible, sanitize } from '../text/sanitize.js';
import { revealed, revealedWithCount } from '../text/visible.js';

const load = createRequire(import.meta.url);

/** The longest line the dialog shows of a request's input; the rest is one key away. */
export const SUBJECT_CHARS = 200;
/** The mark a cut line ends with. */
export const CUT_MARK = '… (cut: v shows the whole input)';

/** The fields that say what a tool runs or touches, the first found leading (Claude Code's tool inputs). */
const SUBJECT_FIELDS = ['command', 'file_path', 'notebook_path', 'url', 'path', 'pattern', 'query', 'prompt'];

/** The subject fields that name a file. */
const PATH_FIELDS = new Set(['file_path', 'notebook_path', 'path']);

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
   * marked, then the names of the other fields it leaves out (`(+ content, timeout)`).
   */
  subject: string;
  /** Whether `subject` leaves out anything but the description (the whole input is then one key away). */
  cut: boolean;
  /**
   * The whole input, every field, strings or not: `name: value`, a value of many lines under its
   * name, a command one part per line; hidden and look-alike characters written out (`⟨U+0456⟩`).
   */
  whole: string;
  /** sha256 (hex) of the tool and its input as read: what an answer is bound to. */
  hash: string;
  /** How many characters `whole` writes out as `⟨U+XXXX⟩`. */
  marked: number;
  /** The main field's value as the agent's own dialog draws it (the command, the path), or null. */
  shown: string | null;
  /** Whether `shown` is a path (the dialog may draw it relative to the agent's folder). */
  shownIsPath: boolean;
}

// C0/C1 controls other than newline and tab, bidi controls and zero-width characters: a terminal
// would hide, move or act on them, so what is shown would not be what runs.
const UNSHOWABLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** A field's value as text: a string as it is, anything else as JSON (on one line when short). */
function asBlock(value: unknown): string {
  if (typeof value === 'string') return value;
  const flat = JSON.stringify(value) ?? String(value);
  return flat.length <= SUBJECT_CHARS ? flat : JSON.stringify(value, null, 2);
}

/** One field of the whole input: a command one part per line, other text of many lines under its name. */
function fieldLines(name: string, value: unknown, text: string): string {
  const lines = name === 'command' && typeof value === 'string' ? commandLines(text) : text.split(/\r?\n/);
  return lines.length === 1 ? `${name}: ${lines[0]}` : `${name}:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/**
 * The hash an answer is bound to: the tool and its input as read, serialized again. Node's crypto
 * is loaded here, the first time a request is held, not by every `tower status` (its start path).
 */
export function inputHash(tool: string, input: unknown): string {
  return (load('node:crypto') as typeof crypto)
    .createHash('sha256')
    .update(JSON.stringify([tool, input]))
    .digest('hex');
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
  const fields = Object.entries(input).map(([name, value]) => ({ name, value, text: asBlock(value) }));
  const bad = fields.find((f) => UNSHOWABLE.test(f.text) || UNSHOWABLE.test(f.name));
  if (bad || UNSHOWABLE.test(tool))
    return {
      unreadable:
        `its ${bad ? `"${escapeInvisible(sanitize(bad.name))}"` : 'tool name'} holds ` +
        `characters a terminal would hide or act on`,
    };
  const main =
    SUBJECT_FIELDS.map((name) => fields.find((f) => f.name === name && typeof input[name] === 'string')).find(
      (f) => f !== undefined,
    ) ?? null;
  // No field says what runs: the input itself (without the model's description) is the line.
  const rest = Object.fromEntries(Object.entries(input).filter(([name]) => name !== 'description'));
  const line = revealed(main ? main.text : JSON.stringify(rest))
    .replace(/\r?\n/g, ' ↵ ')
    .replace(/\t/g, ' ');
  const long = [...line].length > SUBJECT_CHARS;
  // Every other field that changes what happens (a file's new content, `run_in_background`, an
  // MCP tool's `args`) is named after the line: the line alone is not all that is approved.
  const others = main ? Object.keys(rest).filter((n) => n !== main.name) : [];
  const more = others.length > 0 ? ` (+ ${others.map((n) => revealed(n)).join(', ')})` : '';
  const subject = (long ? [...line].slice(0, SUBJECT_CHARS).join('') + CUT_MARK : line) + more;
  let marked = 0;
  const whole = fields
    .map((f) => {
      const name = revealedWithCount(f.name);
      const text = revealedWithCount(f.text);
      marked += name.marked + text.marked;
      return fieldLines(name.text, f.value, text.text);
    })
    .join('\n')
    .replace(/\t/g, '  ');
  const toolShown = revealedWithCount(tool);
  return {
    tool: toolShown.text,
    subject,
    cut: long || others.length > 0,
    whole,
    hash: inputHash(tool, input),
    marked: marked + toolShown.marked,
    shown: main ? main.text : null,
    shownIsPath: main !== null && PATH_FIELDS.has(main.name),
  };
}
