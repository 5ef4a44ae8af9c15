/**
 * Whether a pane's screen is positively at its input box, where a typed line lands as a message
 * and not as an answer. Anything else is refused with the reason: a known dialog, a dialog taller
 * than the pane (its top out of sight, or a `↑ N more lines` row), a dialog of a shape tower does
 * not know, a half-drawn frame, or no input box at all. Two shapes are an input box: Claude Code
 * 2.1.332's (a `❯` line between two full-width `─` rules, a few status lines under it) and a plain
 * prompt (the last line starts with `❯` or `>`), as a shell-like agent draws it. Pure.
 */
import { MORE_LINES, readPrompt, unboxed } from './prompt-reading.js';
import { screenTail } from './screen-tail.js';
import { sanitizeLine } from '../text/sanitize.js';

import type { NotAtInput } from '../agents/types.js';

export type { NotAtInput } from '../agents/types.js';

/** Non-blank lines looked at from the bottom (as the prompt reader does). */
const LOOK = 40;
/** Lines Claude Code draws under its input box (the mode line, a status line, a notice). */
const MAX_FOOTER = 4;
/** Lines a draft in the input box may take before its bottom rule. */
const MAX_INPUT = 12;
/** A rule of the input box: `─` across, perhaps a label in it (`──── @worker ─`). */
const BOX_RULE = /^─{3,}.*─$/;
/**
 * The input line: the prompt sign in the first column, then the draft (or nothing). A dialog's own
 * lines are drawn indented (` > out.txt` of a command is no prompt).
 */
const PROMPT_LINE = /^[❯>](\s|$)/;
/** A numbered choice (`❯ 1. Yes`, `  2. No`): a dialog's, never an input line. */
const OPTION = /^\s*[❯>]?\s*\d\.\s+\S/;
/** A question a dialog asks. */
const QUESTION = /\bDo you want to\b|\bWould you like to\b|\?\s*(\[y\/n\]|\(y\/n\))\s*$/i;
/** A dialog's key hint. */
const KEY_HINT = /\b[Ee]sc to cancel\b|\bEnter to (confirm|select)\b|\bTab to amend\b/;
/** A box's side border or corner, as a dialog drawn in a box has. */
const BOX_SIDE = /^\s*[│┃╭╮╰╯┌┐└┘]/;

function quoted(line: string): string {
  const s = sanitizeLine(line.trim());
  return `"${s.length > 80 ? `${s.slice(0, 79)}…` : s}"`;
}

function isRule(line: string): boolean {
  const t = line.trim();
  return BOX_RULE.test(t) && [...t].filter((ch) => ch === '─').length >= Math.min(20, t.length * 0.6);
}

/** A line no input box has around it: a dialog's question, option, key hint, scroll row or border. */
function dialogLine(line: string): string | null {
  const t = unboxed(line).trim();
  if (MORE_LINES.test(line)) return 'tall-dialog';
  if (QUESTION.test(t) || OPTION.test(t) || KEY_HINT.test(t) || BOX_SIDE.test(line)) return 'unknown-dialog';
  return null;
}

/**
 * Whether the lines end in Claude Code's input box: its `❯` line between two rules, and a few clean
 * lines under it.
 */
function claudeInputBox(tail: readonly string[]): boolean {
  for (let bottom = tail.length - 1; bottom >= 0 && tail.length - 1 - bottom <= MAX_FOOTER; bottom--) {
    if (!isRule(tail[bottom]!)) {
      if (dialogLine(tail[bottom]!) !== null) return false;
      continue;
    }
    for (let top = bottom - 1; top >= 0 && bottom - top <= MAX_INPUT + 1; top--) {
      if (!isRule(tail[top]!)) continue;
      const first = tail[top + 1];
      // Both rules span the pane: a shorter or longer one is another frame's (a dialog's top under a draft).
      const sameWidth = tail[top]!.length === tail[bottom]!.length;
      return sameWidth && top + 1 < bottom && first !== undefined && PROMPT_LINE.test(first) && !OPTION.test(first);
    }
    return false;
  }
  return false;
}

/** A plain prompt: the last line starts with `❯` or `>` in its first column and is no dialog's option. */
function plainPrompt(tail: readonly string[]): boolean {
  const last = tail[tail.length - 1] ?? '';
  return PROMPT_LINE.test(last) && !OPTION.test(last);
}

/** A box opened (`╭`) and not closed below it: a frame drawn half. */
function openBox(tail: readonly string[]): boolean {
  let open = false;
  for (const line of tail) {
    if (/^\s*[╭┌]/.test(line)) open = true;
    else if (/^\s*[╰└]/.test(line)) open = false;
  }
  return open;
}

/**
 * Why typing into a pane showing `plain` (escape sequences removed) could land in a dialog; null
 * when it is at its input box.
 */
export function notAtInput(plain: string): NotAtInput | null {
  const tail = screenTail(plain, LOOK);
  const prompt = readPrompt(plain);
  if (prompt?.cut)
    return {
      kind: 'tall-dialog',
      reason:
        `shows a dialog taller than the pane (${prompt.cut}): ` +
        'tower cannot read it whole; attach and answer it there',
    };
  if (prompt) {
    const shown = [prompt.question, ...prompt.options.map((o) => `${o.key}. ${o.label}`)].join(' / ');
    return { kind: 'dialog', reason: `shows a prompt (${shown}): answer it first (tower answer)` };
  }
  const more = tail.find((l) => MORE_LINES.test(l));
  if (more !== undefined)
    return {
      kind: 'tall-dialog',
      reason:
        `shows a dialog taller than the pane (a ${quoted(more)} row): ` +
        'tower cannot read it whole; attach and answer it there',
    };
  if (tail.length === 0) return { kind: 'no-input-box', reason: 'shows nothing: no input box to type into' };
  if (openBox(tail))
    return { kind: 'half-drawn', reason: 'shows a half-drawn frame (a box opened and not closed): look again' };
  if (claudeInputBox(tail) || plainPrompt(tail)) return null;
  const odd = [...tail].reverse().find((l) => dialogLine(l) !== null);
  if (odd !== undefined)
    return {
      kind: 'unknown-dialog',
      reason: `shows what may be a dialog tower cannot read (${quoted(odd)}): attach and look`,
    };
  const last = tail[tail.length - 1]!;
  if (isRule(last))
    return { kind: 'half-drawn', reason: 'shows a half-drawn frame (a rule with nothing under it): look again' };
  return {
    kind: 'no-input-box',
    reason: `shows no input box at its bottom (its last line: ${quoted(last)}): attach and look`,
  };
}
