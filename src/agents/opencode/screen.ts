/**
 * opencode 1.18.33's screen, as it draws it in a pane (test/fixtures/opencode-1.18.33/screens/).
 * Its permission dialog takes the input box's place, every line behind a `┃` bar:
 *
 *   ┃  △ Permission required
 *   ┃    # Shell command
 *   ┃
 *   ┃  $ echo hi > out-a.txt
 *   ┃
 *   ┃   Allow once   Allow always   Reject          ctrl+f fullscreen  ⇆ select  enter confirm
 *
 * The options are not numbered: Left/Right move the selection (it wraps), Enter takes it, Escape
 * rejects, digits do nothing. Which one is selected shows only in colour, so `selectedOption` reads
 * the capture with its escapes. Output from the pane is untrusted: a dialog is read only when every
 * part of it is where opencode draws it, and its command only when it is one plain line.
 */
export { optionNamed } from './answers.js';
import type { AgentPrompt, AgentPromptOption, AgentReading, NotAtInput } from '../types.js';
import { isPermission } from './answers.js';
import { questionFooter, readQuestion } from './question-screen.js';
import { withoutSidebar } from './sidebar.js';

/** The dialog's title line. */
export const PERMISSION_TITLE = '△ Permission required';
/** The options as drawn, in order; tower's keys for them (`1` Allow once, `n` Reject as everywhere). */
export const OPTIONS: readonly AgentPromptOption[] = [
  { key: '1', label: 'Allow once' },
  { key: '2', label: 'Allow always' },
  { key: '3', label: 'Reject' },
];
const OPTIONS_LINE = /^\s*Allow once {3}Allow always {3}Reject(\s|$)/;
const QUESTION = 'Permission required';
/** How far above the options line the title may be (a long command wraps onto a few lines). */
const MAX_DIALOG_LINES = 24;
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'fish', 'ksh', 'tcsh', 'csh']);

/** A line without the dialog's `┃` bar and the blanks around it. */
function unbarred(line: string): string {
  return line.replace(/^\s*┃/, '').trim();
}

/** The line numbers of the dialog's title and options line, the lowest such pair on screen, or null. */
function dialogLines(lines: string[]): { title: number; options: number } | null {
  for (let o = lines.length - 1; o >= 0; o--) {
    if (!OPTIONS_LINE.test(unbarred(lines[o] ?? '') + ' ')) continue;
    for (let t = o - 1; t >= Math.max(0, o - MAX_DIALOG_LINES); t--) {
      if (unbarred(lines[t] ?? '') === PERMISSION_TITLE) return { title: t, options: o };
    }
    return null;
  }
  return null;
}

/** The dialog at the bottom of a screen (a permission, or a question of its question tool), read whole, or null. */
export function readPrompt(plain: string): AgentPrompt | null {
  return readPermission(plain) ?? readQuestion(plain);
}

/** The permission dialog at the bottom of a screen, read whole, or null. */
function readPermission(plain: string): AgentPrompt | null {
  const lines = withoutSidebar(plain);
  const at = dialogLines(lines);
  if (!at) return null;
  // The session's sidebar shares the rows on the right, after a wide gap: a row that is only the
  // sidebar is blank in the dialog; one with both cannot be told apart from a command holding such
  // a gap, so then the dialog is not read (its own keys answer it).
  const rows = lines.slice(at.title + 1, at.options).map((l) => l.replace(/^\s*┃/, ''));
  const content = rows.map((r) => (/^\s{10,}\S/.test(r) ? '' : r.trim()));
  if (content.some((l) => /\S\s{10,}\S/.test(l))) return null;
  const subject = content.filter((l) => l !== '');
  if (subject.length === 0) return null;
  const question = QUESTION;
  return {
    question,
    subject,
    options: [...OPTIONS],
    signature: JSON.stringify([question, subject, OPTIONS.map((o) => o.label)]),
  };
}

/** Whether the dialog `before` is gone from the screen (answered, or another in its place). */
export function dialogGone(plain: string, before: AgentPrompt): boolean {
  return readPrompt(plain)?.signature !== before.signature;
}

/**
 * The option a choice means when answered by keys: Reject (`3`/`n`), which is Escape wherever the
 * selection is, and Allow once (`1`/`y`), taken by moving the selection onto it, reading it back
 * from the colours (`selectedOption`), then Enter. Allow always asks a second Confirm: it goes through
 * opencode's server by request id, and by keys is refused rather than guessed.
 */
export function optionFor(p: AgentPrompt, choice: string): AgentPromptOption | null {
  // A question's options are numbered: its digit answers it at once.
  if (!isPermission(p)) return p.options.find((o) => o.key === choice) ?? null;
  const key = choice === 'n' ? '3' : choice === 'y' ? '1' : choice;
  return key === '3' || key === '1' ? (p.options.find((o) => o.key === key) ?? null) : null;
}

/** The last non-blank rows, where opencode draws its working line and input box. */
const TAIL_LINES = 8;

/**
 * What the screen says opencode is doing: its dialog is a question; `esc interrupt` under the input
 * box a turn in progress; moving output working; its input box (`┃` with the agent and model line)
 * waiting; a shell idle.
 */
export function readScreen(plain: string, moved: boolean, command: string): AgentReading {
  if (SHELLS.has(command)) return { activity: 'idle', cue: 'shell' };
  if (readPrompt(plain)) return { activity: 'waiting', cue: 'question' };
  const tail = plain
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-TAIL_LINES)
    .join('\n');
  if (/esc (to )?interrupt/.test(tail)) return { activity: 'working', cue: 'interrupt-hint' };
  if (moved) return { activity: 'working', cue: 'output-moving' };
  if (/^\s*┃\s+\S+ · .+$/m.test(tail)) return { activity: 'waiting', cue: 'prompt' };
  return { activity: 'idle', cue: 'silent' };
}

// SGR parameters of one escape: `ESC [ … m`.
const SGR = /\u001b\[([0-9;]*)m/g;

/** The background colour after an SGR's parameters, from the one before. */
function background(params: string, bg: string): string {
  const p = params === '' ? ['0'] : params.split(';');
  for (let i = 0; i < p.length; i++) {
    const n = p[i];
    if (n === '0' || n === '49') bg = '';
    else if (n === '48' && p[i + 1] === '5') {
      bg = `5;${p[i + 2] ?? ''}`;
      i += 2;
    } else if (n === '48' && p[i + 1] === '2') {
      bg = `2;${p.slice(i + 2, i + 5).join(';')}`;
      i += 4;
    } else if (n && /^4[0-7]$|^10[0-7]$/.test(n)) bg = n;
    else if (n === '38' && (p[i + 1] === '5' || p[i + 1] === '2')) i += p[i + 1] === '5' ? 2 : 4;
  }
  return bg;
}

/**
 * The option the dialog has selected, from a capture with escapes (`capture-pane -e`): the one label
 * drawn on a background of its own (the others share the dialog's). Null when the dialog is not on
 * screen or no one label stands out.
 */
export function selectedOption(escaped: string): AgentPromptOption | null {
  const lines = escaped.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (!OPTIONS_LINE.test(unbarred(line.replace(/\u001b\[[0-9;]*m/g, '')) + ' ')) continue;
    // The background under the first letter of each label.
    const bgs = OPTIONS.map((o) => {
      let bg = '';
      let text = '';
      let last = 0;
      for (const m of line.matchAll(SGR)) {
        text += line.slice(last, m.index);
        if (text.includes(o.label)) break;
        bg = background(m[1] ?? '', bg);
        last = m.index + m[0].length;
      }
      return bg;
    });
    const odd = bgs.filter((b) => bgs.filter((c) => c === b).length === 1);
    if (odd.length !== 1) return null;
    return OPTIONS[bgs.indexOf(odd[0]!)] ?? null;
  }
  return null;
}

/**
 * Whether the input box still holds `typed`: the rows just above its agent and model line
 * (`┃  Build · <model>`), the lowest such line on screen.
 */
export function inputHolds(plain: string, typed: string): boolean {
  const lines = plain.split('\n');
  let at = -1;
  for (let i = lines.length - 1; i >= 0 && at < 0; i--) if (/^\s*┃\s+\S+ · /.test(lines[i] ?? '')) at = i;
  if (at < 0) return false;
  return lines.slice(Math.max(0, at - 6), at).some((l) => unbarred(l).includes(typed.slice(0, 40).trim()));
}

/**
 * Why opencode's screen is not at its input box, or null when it is: no permission dialog (nor its
 * options row) in view, and the box's agent and model line (`┃  Build · <model>`) drawn near the
 * bottom. Anything else is refused by the guard before typing.
 */
export function notAtInput(plain: string): NotAtInput | null {
  const asking = readPrompt(plain);
  if (asking) return { kind: 'dialog', reason: `shows a prompt (${asking.question}): answer it first (tower answer)` };
  const lines = plain.split('\n').filter((l) => l.trim() !== '');
  if (lines.some((l) => l.includes(QUESTION) || OPTIONS_LINE.test(unbarred(l))))
    return { kind: 'unknown-dialog', reason: 'shows a permission dialog tower cannot read whole: attach and look' };
  if (questionFooter(lines) >= 0)
    return { kind: 'unknown-dialog', reason: 'shows a question tower cannot read whole: attach and look' };
  const box = lines.slice(-TAIL_LINES).some((l) => /^\s*┃\s+\S+ · .+$/.test(l));
  return box ? null : { kind: 'no-input-box', reason: 'shows no input box (no agent and model line at its bottom)' };
}
