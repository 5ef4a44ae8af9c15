/**
 * Gemini CLI 0.61.0's screen, as it draws it in a pane (test/fixtures/gemini-cli-0.61.0/screens/).
 * Its permission dialog is a rounded box in the conversation:
 *
 *   ╭──────────────────────────────────────────╮
 *   │ ? Shell  echo hi > out-a.txt             │
 *   │ ╭──────────────────────────────────────╮ │
 *   │ │ echo hi > out-a.txt                  │ │
 *   │ ╰──────────────────────────────────────╯ │
 *   │ Allow execution of [Shell]?              │
 *   │ Redirection detected. To auto-accept, …  │
 *   │                                          │
 *   │ ● 1. Allow once                          │
 *   │   2. Allow for this session              │
 *   │   3. No, suggest changes (esc)           │
 *   ╰──────────────────────────────────────────╯
 *
 * A digit selects its option and confirms it at once. Output from the pane is untrusted: a dialog is
 * read only when its box, its question and numbered options 1… are all there.
 */
export { optionFor } from './answers.js';
import type { AgentPrompt, AgentPromptOption, AgentReading, NotAtInput } from '../types.js';

const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'fish', 'ksh', 'tcsh', 'csh']);
/** How many lines the box may span (a long command wraps). */
const MAX_BOX_LINES = 40;

/** A line of the outer box without its `│` sides, or null when it is not one. */
function inside(line: string): string | null {
  const m = /^\s*│(.*)│\s*$/.exec(line);
  return m ? m[1]!.trim() : null;
}

/** The dialog box at the bottom of a screen, read whole, or null. */
export function readPrompt(plain: string): AgentPrompt | null {
  const lines = plain.split('\n');
  let bottom = -1;
  for (let i = lines.length - 1; i >= 0 && bottom < 0; i--) if (/^\s*╰─+╯\s*$/.test(lines[i] ?? '')) bottom = i;
  if (bottom < 0) return null;
  // Nothing but blank lines and the input box's area may follow a dialog: the dialog replaces the box.
  if (lines.slice(bottom + 1).some((l) => /Type your message/.test(l))) return null;
  let top = -1;
  for (let i = bottom - 1; i >= Math.max(0, bottom - MAX_BOX_LINES); i--) {
    if (/^\s*╭─+╮\s*$/.test(lines[i] ?? '')) {
      top = i;
      break;
    }
    if (inside(lines[i] ?? '') === null) return null;
  }
  if (top < 0) return null;
  const body = lines.slice(top + 1, bottom).map((l) => inside(l) ?? '');
  const options: AgentPromptOption[] = [];
  let first = -1;
  body.forEach((l, i) => {
    const m = /^(?:●\s+)?(\d)\.\s+(.+)$/.exec(l);
    if (!m) return;
    if (first < 0) first = i;
    options.push({ key: m[1]!, label: m[2]! });
  });
  if (options.length < 2 || options.some((o, i) => o.key !== String(i + 1))) return null;
  let q = first - 1;
  while (q >= 0 && !(/\?$/.test(body[q] ?? '') && !/^[│╭╰]/.test(body[q] ?? ''))) q--;
  if (q < 0) return null;
  const question = body[q]!;
  // The subject: the title line and the command in its inner box, without the inner box's rules.
  const subject = body
    .slice(0, q)
    .filter((l) => !/^[╭╰]─+[╮╯]$/.test(l))
    .map((l) => l.replace(/^│\s?(.*?)\s*│$/, '$1').trim())
    .filter((l) => l !== '');
  if (subject.length === 0) return null;
  return {
    question,
    subject,
    options,
    signature: JSON.stringify([question, subject, options.map((o) => o.label)]),
  };
}

/** Whether the dialog `before` is gone from the screen. */
export function dialogGone(plain: string, before: AgentPrompt): boolean {
  return readPrompt(plain)?.signature !== before.signature;
}

/**
 * What the screen says Gemini CLI is doing: its dialog is a question; `esc to cancel` on its spinner
 * line a turn in progress; moving output working; its input box (`>   Type your message`) waiting.
 */
export function readScreen(plain: string, moved: boolean, command: string): AgentReading {
  if (SHELLS.has(command)) return { activity: 'idle', cue: 'shell' };
  if (readPrompt(plain)) return { activity: 'waiting', cue: 'question' };
  if (/\(esc to cancel\b/.test(plain)) return { activity: 'working', cue: 'interrupt-hint' };
  if (moved) return { activity: 'working', cue: 'output-moving' };
  const tail = plain
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-8)
    .join('\n');
  if (/^\s*>\s/m.test(tail)) return { activity: 'waiting', cue: 'prompt' };
  return { activity: 'idle', cue: 'silent' };
}

/**
 * Whether the input box still holds `typed`: the box is the last `>` line on screen (the
 * conversation above draws the user's messages with `>` too, but always above the box).
 */
export function inputHolds(plain: string, typed: string): boolean {
  const box = plain.split('\n').findLast((l) => /^\s*>\s/.test(l));
  return box !== undefined && box.includes(typed.slice(0, 40).trim());
}

/**
 * Why Gemini CLI's screen is not at its input box, or null when it is: no dialog, and the box's
 * `>` line drawn between its `▄▄▄` and `▀▀▀` rows with nothing boxed (`╭`) below it. Anything
 * else (a dialog, a half-drawn box, no box) is refused by the guard before typing.
 */
export function notAtInput(plain: string): NotAtInput | null {
  const asking = readPrompt(plain);
  if (asking) return { kind: 'dialog', reason: `shows a prompt (${asking.question}): answer it first (tower answer)` };
  const lines = plain.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findLastIndex((l) => /^\s*>\s/.test(l));
  if (at < 0) return { kind: 'no-input-box', reason: 'shows no input box (no `>` line)' };
  const framed = /▄{10,}/.test(lines[at - 1] ?? '') && /▀{10,}/.test(lines[at + 1] ?? '');
  if (!framed) return { kind: 'half-drawn', reason: 'shows its input box half drawn: look again' };
  if (lines.slice(at + 2).some((l) => /^\s*[╭│]/.test(l)))
    return {
      kind: 'unknown-dialog',
      reason: 'shows a box under its input box that tower cannot read: attach and look',
    };
  return null;
}
