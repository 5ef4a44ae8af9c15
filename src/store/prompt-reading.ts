/**
 * The question or permission prompt a pane shows, read the way Claude Code draws it. Claude Code
 * 2.1.332 draws a permission dialog in place of its input box: a full-width `─` rule, the tool's
 * title (`Bash command`, `Bash command · from the worker agent` for a teammate's request), an
 * optional tip, the description, the command between two `╌` rules, the question (`Do you want to
 * proceed?`) and numbered choices (`❯ 1. Yes` … `4. No`), whose labels wrap in a narrow pane. Older
 * versions drew a `╭…╮` box; a `[y/n]` question is read too. Pure: the same dialog always reads
 * the same, whatever the transcript above it does, so a prompt seen before is recognised again.
 */
import { screenTail } from './screen-tail.js';
import { dialogSubject } from './prompt-subject.js';

export interface PromptOption {
  /** What is typed to choose it: the digit, or `y` / `n`. */
  key: string;
  label: string;
}

export interface PanePrompt {
  /** The question line (`Do you want to proceed?`). */
  question: string;
  /** What the prompt is about: the dialog's own lines above the question (the tool, the description, the command). */
  subject: string[];
  options: PromptOption[];
  /** The prompt as a whole, for telling it from another one: question, subject and options. */
  signature: string;
  /** The member whose pane draws it, when that is another one (a teammate's request, in its lead's pane). */
  drawnIn?: string;
  /** When tower first saw this dialog (ISO), set by the captures; the same dialog keeps its first time. */
  since?: string;
  /**
   * Why the dialog is not seen whole, when it is not: its top (title, description, head of the
   * command) is out of sight. The subject then starts with CUT_MARK, never silently mid-command.
   */
  cut?: string;
  /** The request as an agent CLI's own server gave it (id, tool, input whole): never set for a screen's dialog. */
  request?: { id: string; tool: string; whole: string };
}

/** The first line of a subject whose dialog's top is out of sight. */
export const CUT_MARK = "[cut: the dialog's top is out of sight]";

/** Non-blank lines looked at, from the bottom of the screen: a dialog with a long command is tall. */
const LOOK = 40;
/**
 * The most a prompt read here can hold (a box's prompt is held to the same at the door; its options'
 * keys to what the agent modules take, agents/registry.ts `ANSWER_KEYS`).
 */
export const PROMPT_BOUNDS = { subject: LOOK, options: LOOK } as const;
const QUESTION = /(\bDo you want to\b[^?]*\?|\bWould you like to\b[^?]*\?|[^\n]*\?\s*(\[y\/n\]|\(y\/n\))\s*$)/i;
/** An option line: the cursor (`❯`) or its room, the number, the label; group 1 is all before the label. */
const OPTION = /^(\s*[❯>]?\s*(\d)\.\s+)(\S.*)$/;
const YES_NO = /\[y\/n\]|\(y\/n\)/i;
/** What may follow a prompt's options and still leave it waiting: its box's border, a key hint, an empty input. */
const TRAILER = /^([╰└─━]+.*|.*\b[Ee]sc to (cancel|interrupt)\b.*|[❯>]\s*)$/;
/**
 * The row Claude Code 2.1.332 draws under a dialog's options when the dialog is taller than the
 * pane (`↑ 34 more lines`): part of the dialog, which scrolls; its top is out of sight.
 */
export const MORE_LINES = /^\s*[↑↓]\s*\d+\s+more\s+lines?\b/;

/** A line without a box's side borders (`│ text │` → ` text`), its indent kept. */
export function unboxed(line: string): string {
  return line.replace(/^\s*[│┃|]\s?/, '').replace(/\s*[│┃|]\s*$/, '');
}

/** Whether the screen shows a prompt with options that output below it says was answered. */
export function promptAnswered(plain: string): boolean {
  return scan(plain) === 'answered';
}

/** The prompt at the bottom of a screen (escape sequences already removed), or null. */
export function readPrompt(plain: string): PanePrompt | null {
  const found = scan(plain);
  return typeof found === 'object' ? found : null;
}

/** The options below the question; a label wrapped onto the next lines (indented under it) is joined. */
function readOptions(lines: readonly string[]): { options: PromptOption[]; after: number; more: string | null } {
  const options: PromptOption[] = [];
  let after = 0;
  let more: string | null = null;
  let labelAt = -1;
  for (const line of lines) {
    const m = OPTION.exec(line);
    if (m && after === 0) {
      options.push({ key: m[2]!, label: m[3]!.trim() });
      labelAt = m[1]!.length;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const last = options[options.length - 1];
    if (last && labelAt > 0 && after === 0 && indent >= labelAt && !TRAILER.test(line.trim())) {
      last.label = `${last.label} ${line.trim()}`;
      continue;
    }
    labelAt = -1;
    if (after === 0 && options.length > 0 && MORE_LINES.test(line)) {
      more = line.trim();
      continue;
    }
    if (!TRAILER.test(line.trim())) after++;
  }
  return { options, after, more };
}

function scan(plain: string): PanePrompt | 'answered' | null {
  const raw = screenTail(plain, LOOK);
  const lines = raw.map(unboxed);
  let q = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    // Every question has its `?`: looked for first, as the pattern backtracks over a line without one.
    const line = lines[i] ?? '';
    if (line.includes('?') && QUESTION.test(line)) {
      q = i;
      break;
    }
  }
  if (q < 0) return null;
  const question = lines[q]!.trim();
  const { options, after, more } = readOptions(lines.slice(q + 1));
  // Output below the prompt means it was answered and the agent went on: no prompt now.
  if (after > 0) return options.length > 0 ? 'answered' : null;
  if (options.length === 0 && YES_NO.test(question))
    options.push({ key: 'y', label: 'yes' }, { key: 'n', label: 'no' });
  if (options.length === 0) return null;
  const read = dialogSubject(raw, lines, q);
  // Its top out of sight: scrolled (a `↑ N more lines` row), or above the lines looked at.
  const cut =
    more ?? (read.top ? null : read.full || raw.length >= LOOK ? 'its top is above the lines tower reads' : null);
  const subject = cut === null ? read.lines : [CUT_MARK, ...read.lines];
  const signature = JSON.stringify([question, subject, options.map((o) => `${o.key}.${o.label}`)]);
  return { question, subject, options, signature, ...(cut === null ? {} : { cut }) };
}

/**
 * The option that says No (`4. No`, `2. No, and tell Claude …`; opencode's `Reject`), whatever its
 * number; null when none does.
 */
export function noOption(p: PanePrompt): PromptOption | null {
  return p.options.find((o) => o.key === 'n' || /^(no|reject)\b/i.test(o.label)) ?? null;
}

/**
 * The option a choice means: its number (or `y` / `n` of a `[y/n]` question); `n` the option that
 * says No and `y` the plain Yes (opencode's Allow once), whatever their numbers (2.1.332's Bash dialog: `4. No`; a
 * teammate's forwarded one: `3. No`). Null when the prompt has none.
 */
export function optionFor(p: PanePrompt, choice: string): PromptOption | null {
  const c = choice.toLowerCase();
  const exact = p.options.find((o) => o.key === c);
  if (exact) return exact;
  if (c === 'n') return noOption(p);
  // `y`: the plain Yes (opencode's Allow once), or the option the dialog itself marks `(y)` (Codex's
  // `1. Yes, proceed (y)`).
  if (c === 'y') return p.options.find((o) => /^(yes|allow once)$/i.test(o.label) || /\(y\)$/i.test(o.label)) ?? null;
  return null;
}

/**
 * How old a dialog must be before tower types into it. Claude Code 2.1.332 drops a key that comes
 * right after it draws a dialog. Typed as tower types (the digit, then a carriage return) N ms
 * after the dialog first showed in a capture (test/bench/dialog-age.bench.ts, 5 rounds): lost 1 of
 * 5 at 0, 25 and 75 ms, taken 5 of 5 from 100 ms on; earlier runs lost one at 100 ms and none at
 * 150 ms or later; others saw ~0.3 s. Kept well past all of them.
 */
export const MIN_DIALOG_AGE_MS = 600;

/**
 * Whether the dialog `before` is gone from a screen: neither it nor its question with its options
 * is shown (or only above output the agent printed since), or another dialog (another subject)
 * stands in its place.
 */
export function dialogGone(plain: string, before: PanePrompt): boolean {
  const found = scan(plain);
  // Output below its options: the agent took an answer and went on (a dialog left in the scrollback).
  if (found === 'answered') return true;
  const now = typeof found === 'object' ? found : null;
  if (now) return now.signature !== before.signature && JSON.stringify(now.subject) !== JSON.stringify(before.subject);
  const tail = screenTail(plain, LOOK).map((l) => unboxed(l).trim());
  const asks = tail.some((l) => l.includes(before.question));
  const offers = before.options.some((o) =>
    tail.some((l) => OPTION.exec(l)?.[2] === o.key && l.includes(o.label.slice(0, 20))),
  );
  return !(asks && offers);
}
