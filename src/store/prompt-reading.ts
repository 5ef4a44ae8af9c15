/**
 * The question or permission prompt a pane shows, read the way Claude Code draws it: a box with what
 * is asked (`Bash command`, the command), the question (`Do you want to proceed?`) and numbered
 * choices (`❯ 1. Yes`, `  2. No, and tell Claude what to do differently`); or a `[y/n]` question.
 * Pure: the same screen always reads the same, so a prompt seen before can be recognised again.
 */
import { screenTail } from './screen-tail.js';

export interface PromptOption {
  /** What is typed to choose it: the digit, or `y` / `n`. */
  key: string;
  label: string;
}

export interface PanePrompt {
  /** The question line (`Do you want to proceed?`). */
  question: string;
  /** What the prompt is about: the lines of its box above the question (the tool and the command). */
  subject: string[];
  options: PromptOption[];
  /** The prompt as a whole, for telling it from another one: question, subject and options. */
  signature: string;
}

/** Lines looked at, from the bottom of the screen: a prompt box is a dozen lines. */
const LOOK = 24;
/** Lines of a prompt's box above its question that are its subject, at most. */
const SUBJECT_LINES = 10;
/** The most a prompt read here can hold (a box's prompt is held to the same at the door). */
export const PROMPT_BOUNDS = { subject: SUBJECT_LINES, options: LOOK, key: /^([0-9]|y|n)$/ } as const;
const QUESTION = /(\bDo you want to\b[^?]*\?|\bWould you like to\b[^?]*\?|[^\n]*\?\s*(\[y\/n\]|\(y\/n\))\s*$)/i;
const OPTION = /^[❯>]?\s*(\d)\.\s+(.+)$/;
const YES_NO = /\[y\/n\]|\(y\/n\)/i;
/** What may follow a prompt's options and still leave it waiting: its box's border, a key hint, an empty input. */
const TRAILER = /^([╰└─━]+.*|.*\b[Ee]sc to (cancel|interrupt)\b.*|[❯>]\s*)$/;

/** A box line without its border: `│ text │` → `text`. */
function unboxed(line: string): string {
  return line
    .replace(/^\s*[│┃|]\s?/, '')
    .replace(/\s*[│┃|]\s*$/, '')
    .trim();
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

function scan(plain: string): PanePrompt | 'answered' | null {
  const lines = screenTail(plain, LOOK).map(unboxed);
  let q = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (QUESTION.test(lines[i] ?? '')) {
      q = i;
      break;
    }
  }
  if (q < 0) return null;
  const question = lines[q]!;
  const options: PromptOption[] = [];
  let after = 0;
  for (const line of lines.slice(q + 1)) {
    const m = OPTION.exec(line);
    if (m && after === 0) options.push({ key: m[1]!, label: m[2]!.trim() });
    else if (!TRAILER.test(line)) after++;
  }
  // Output below the prompt means it was answered and the agent went on: no prompt now.
  if (after > 0) return options.length > 0 ? 'answered' : null;
  if (options.length === 0 && YES_NO.test(question))
    options.push({ key: 'y', label: 'yes' }, { key: 'n', label: 'no' });
  if (options.length === 0) return null;
  // The box above the question: from its top border (or the start of what was looked at) down.
  const raw = screenTail(plain, LOOK);
  let top = q - 1;
  while (top >= 0 && q - top <= SUBJECT_LINES && !/^\s*[╭┌]/.test(raw[top] ?? '')) top--;
  const subject = lines.slice(Math.max(0, top + 1), q).filter((l) => l !== '' && !/^[─━]+$/.test(l));
  const signature = JSON.stringify([question, subject, options.map((o) => `${o.key}.${o.label}`)]);
  return { question, subject, options, signature };
}
