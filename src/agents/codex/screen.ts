/**
 * Codex 0.169.0's screen, read. Pure. While a turn runs it draws `• Working (12s • esc to interrupt)`
 * above its input box, and the input box stays drawn (placeholder and all), so the box alone never
 * means idle. An approval replaces the box with a dialog: `Would you like to run the following
 * command?`, then `Environment:`, `Reason:`, `$ <command>` (each a line, blank lines between), then
 * the choices `› 1. Yes, proceed (y)`, `2. Yes, and don't ask again for commands that start with …
 * (p)` (wrapped, indented under its label), `3. No, and tell Codex what to do differently (esc)`,
 * and `Press enter to confirm or esc to cancel`.
 */
import type { NotAtInput, AgentPrompt, AgentPromptOption, AgentReading } from '../types.js';

export { codexOption } from './answers.js';

/** Non-blank lines looked at from the bottom: a dialog with a long command is tall. */
const LOOK = 40;
const WORKING = /^\s*\S?\s*Working \(\d[^)]*\besc to interrupt\)/;
const QUESTION = /^\s*Would you like to\b[^?]*\?\s*$/;
const OPTION = /^(\s*›?\s*(\d)\.\s+)(\S.*)$/;
/** What follows a dialog's choices and still leaves it open: its key hint. */
const HINT = /^\s*Press enter to confirm or esc to cancel\s*$/;
/** The input box's line: `› ` and what is typed (or the placeholder). */
const INPUT = /^›\s/;
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'fish', 'ksh', 'tcsh', 'csh', 'nu', 'login']);

/** The last `n` non-blank lines of a screen, trailing blanks trimmed. */
function tail(plain: string, n: number): string[] {
  return plain
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-n);
}

/** The dialog at the bottom of the screen, read whole, or null. */
export function codexPrompt(plain: string): AgentPrompt | null {
  const lines = tail(plain, LOOK);
  const q = lines.findLastIndex((l) => QUESTION.test(l));
  if (q < 0) return null;
  const subject: string[] = [];
  const options: AgentPromptOption[] = [];
  let labelAt = -1;
  for (const line of lines.slice(q + 1)) {
    const m = OPTION.exec(line);
    if (m) {
      options.push({ key: m[2]!, label: m[3]!.trim() });
      labelAt = m[1]!.length;
      continue;
    }
    if (HINT.test(line)) {
      labelAt = -2;
      continue;
    }
    const last = options[options.length - 1];
    const indent = line.length - line.trimStart().length;
    if (last && labelAt > 0 && indent >= labelAt) {
      last.label = `${last.label} ${line.trim()}`;
      continue;
    }
    // Anything after the choices (another line, the input box back) means this dialog is not open.
    if (options.length > 0) return null;
    subject.push(line.trim());
  }
  if (options.length === 0 || labelAt !== -2) return null;
  const question = lines[q]!.trim();
  const signature = JSON.stringify([question, subject, options.map((o) => `${o.key}.${o.label}`)]);
  return { question, subject, options, signature };
}

/** What a screen shows the agent doing. */
export function readCodexScreen(plain: string, moved: boolean, command: string): AgentReading {
  const lines = tail(plain, 12);
  if (codexPrompt(plain)) return { activity: 'waiting', cue: 'question' };
  if (lines.some((l) => WORKING.test(l))) return { activity: 'working', cue: 'interrupt-hint' };
  if (moved) return { activity: 'working', cue: 'output-moving' };
  const shell = SHELLS.has(command.replace(/^-/, ''));
  if (!shell && lines.slice(-4).some((l) => INPUT.test(l))) return { activity: 'waiting', cue: 'prompt' };
  return { activity: 'idle', cue: shell ? 'shell' : 'silent' };
}

/** Whether the dialog `before` is gone: none is open, or another one stands in its place. */
export function codexDialogGone(plain: string, before: AgentPrompt): boolean {
  const now = codexPrompt(plain);
  return now === null || now.signature !== before.signature;
}

/** Whether the input box (the last `›` line near the bottom) still holds `typed`. */
export function codexInputHolds(plain: string, typed: string): boolean {
  const box = tail(plain, 6).findLast((l) => INPUT.test(l));
  return box !== undefined && box.includes(typed);
}

/**
 * Why Codex's screen is not at its input box, or null when it is: no dialog and no `Press enter to
 * confirm` hint in view, and the box's `›` line (not a `› 1.` option) among the last lines. A screen
 * without that line is not read as a box, whatever else it shows.
 */
export function codexNotAtInput(plain: string): NotAtInput | null {
  const asking = codexPrompt(plain);
  if (asking) return { kind: 'dialog', reason: `shows a prompt (${asking.question}): answer it first (tower answer)` };
  const lines = tail(plain, LOOK);
  if (lines.some((l) => QUESTION.test(l) || HINT.test(l)))
    return { kind: 'unknown-dialog', reason: 'shows a dialog tower cannot read whole: attach and look (tower attach)' };
  const box = tail(plain, 6).some((l) => INPUT.test(l) && !OPTION.test(l));
  return box ? null : { kind: 'no-input-box', reason: 'shows no input box (no `›` line at its bottom)' };
}
