/**
 * opencode 1.18.33's question dialog, drawn when its model calls the `question` tool
 * (test/fixtures/opencode-1.18.33/screens/question.txt), in the input box's place behind a `┃` bar:
 *
 *   ┃  Which colour should the button be?
 *   ┃
 *   ┃  1. Red
 *   ┃     A warm red
 *   ┃  2. Blue
 *   ┃     A cool blue
 *   ┃  3. Type your own answer
 *   ┃
 *   ┃  ↑↓ select  enter submit  esc dismiss
 *
 * Unlike its permission dialog the options are numbered, and a digit answers at once. The last,
 * "Type your own answer", asks for text and is not offered. Read only when every part is where it
 * is drawn; options named like the permission dialog's are not read (a key for one would be taken
 * for the other).
 */
import type { AgentPrompt } from '../types.js';
import { OPTION_LABELS } from './keys.js';
import { withoutSidebar } from './sidebar.js';

/** The dialog's footer, under its options. */
export const QUESTION_FOOTER = /^↑↓ select {2}enter submit {2}esc dismiss(\s{10,}\S.*)?$/;
const CUSTOM = 'Type your own answer';
/** How far above the footer the dialog may begin. */
const MAX_LINES = 40;

/** A row without its `┃` bar; a row that is only the sidebar (after a wide gap) is blank. */
function content(line: string): string {
  const r = line.replace(/^\s*┃/, '');
  return /^\s{10,}\S/.test(r) ? '' : r.replace(/\s+$/, '');
}

/** The line number of the lowest question footer on screen, or -1. */
export function questionFooter(lines: readonly string[]): number {
  for (let i = lines.length - 1; i >= 0; i--)
    if (QUESTION_FOOTER.test((lines[i] ?? '').replace(/^\s*┃/, '').trim())) return i;
  return -1;
}

/** The question dialog at the bottom of a screen, read whole, or null. */
export function readQuestion(plain: string): AgentPrompt | null {
  const lines = withoutSidebar(plain);
  const footer = questionFooter(lines);
  if (footer < 0) return null;
  const rows: string[] = [];
  for (let i = footer - 1; i >= Math.max(0, footer - MAX_LINES) && /^\s*┃/.test(lines[i] ?? ''); i--)
    rows.unshift(content(lines[i] ?? ''));
  // A row holding both the dialog and the sidebar cannot be told from text with a wide gap.
  if (rows.some((r) => /\S\s{10,}\S/.test(r.trim()))) return null;
  const text = rows.map((r) => r.trim());
  let at = text.findIndex((r) => r !== '');
  const question: string[] = [];
  while (at >= 0 && at < text.length && text[at] !== '') question.push(text[at++]!);
  if (question.length === 0 || question.some((l) => /^\d\. /.test(l))) return null;
  const options: { label: string; about: string[] }[] = [];
  for (; at < text.length; at++) {
    const t = text[at]!;
    if (t === '') continue;
    const m = /^(\d)\. (.+?)( ✓)?$/.exec(t);
    if (m) {
      if (Number(m[1]) !== options.length + 1) return null;
      options.push({ label: m[2]!, about: [] });
    } else if (options.length > 0 && /^ {5}\S/.test(rows[at]!)) options.at(-1)!.about.push(t);
    else return null;
  }
  if (options.at(-1)?.label === CUSTOM) options.pop();
  if (options.length === 0 || options.some((o) => (OPTION_LABELS as readonly string[]).includes(o.label))) return null;
  const subject = options.map((o, i) => `${i + 1}. ${o.label}${o.about.length ? ` (${o.about.join(' ')})` : ''}`);
  const asked = question.join(' ');
  return {
    question: asked,
    subject,
    options: options.map((o, i) => ({ key: String(i + 1), label: o.label })),
    signature: JSON.stringify(['question', asked, subject]),
  };
}
