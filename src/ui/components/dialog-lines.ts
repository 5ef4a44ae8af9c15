/**
 * The text of each dialog. The confirm dialog shows exactly the plan's title and every effect's
 * text, wrapped rather than cut so nothing of what will happen is hidden. Pure.
 */
import type { Bindings, Command } from '../../keys/keymap.js';
import { keysLabel } from '../../keys/keymap.js';
import type { Dialog } from '../state/dialog-state.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';
import type { Segment } from '../text/segments.js';
import { displayWidth, wrapText } from '../text/width.js';

/** A dialog's title (in its frame) and body lines, for a given inner width. */
export interface DialogText {
  title: string;
  body: Segment[][];
  /** Whether it is a warning (refusal) rather than a question. */
  tone: 'question' | 'refusal';
}

const wrapped = (text: string, width: number, tone?: Segment['tone'], indent = ''): Segment[][] =>
  wrapText(sanitizeLine(text), Math.max(1, width - displayWidth(indent))).map((l, i) => [
    { text: (i === 0 ? '' : indent) + l, tone },
  ]);

function keysLine(bindings: Bindings, pairs: [Command, string][]): Segment[] {
  return pairs.flatMap(([c, label], i): Segment[] => [
    ...(i > 0 ? [{ text: '    ' }] : []),
    { text: keysLabel(bindings, c), tone: 'key' },
    { text: ` ${label}` },
  ]);
}

/** What a plan approves, whole: each line wrapped, none cut (a command one part a line); none: no lines. */
function approvesLines(approves: readonly string[] | undefined, width: number): Segment[][] {
  if (!approves) return [];
  const lines = approves.flatMap((line) => wrapText(sanitizeLine(line), Math.max(1, width - 2)));
  return [[{ text: 'It approves:', tone: 'dim' }], ...lines.map((l): Segment[] => [{ text: `  ${l}` }]), []];
}

/** The dialog's lines for an inner width of `width` cells. */
export function dialogText(dialog: Dialog, width: number, bindings: Bindings, readonly: boolean): DialogText {
  switch (dialog.kind) {
    case 'confirm':
      return confirmText(dialog, width, bindings, readonly);
    case 'refusal':
      return refusalText(dialog.title, dialog.reason, width, bindings);
    case 'read':
      return readText(dialog, width, bindings);
    case 'offer-terminate':
      return offerText(dialog, width, bindings);
    case 'send':
      return sendText(dialog, width, bindings);
    case 'request':
      return requestText(dialog, width, bindings);
  }
}

/** The confirm dialog: the plan's title, what it approves, its effects whole. */
function confirmText(
  dialog: Extract<Dialog, { kind: 'confirm' }>,
  width: number,
  bindings: Bindings,
  readonly: boolean,
): DialogText {
  const { plan } = dialog;
  if (plan.refusal) return refusalText(plan.title, plan.refusal, width, bindings);
  const body: Segment[][] = [...wrapped(plan.title, width, 'title'), []];
  body.push(...approvesLines(plan.approves, width));
  body.push([
    {
      text: plan.effects.length > 0 ? (plan.destructive ? 'This will:' : 'Steps:') : 'This changes nothing.',
      tone: 'dim',
    },
  ]);
  for (const e of plan.effects) {
    const lines = wrapText(sanitizeLine(e.text), Math.max(1, width - 4));
    lines.forEach((l, i) => body.push([{ text: i === 0 ? '  • ' : '    ', tone: 'accent' }, { text: l }]));
  }
  body.push(
    [],
    keysLine(bindings, [
      ['confirm', 'run it'],
      ['cancel', 'cancel'],
    ]),
  );
  return { title: readonly ? 'Confirm (read-only)' : 'Confirm', body, tone: 'question' };
}

/** A text read whole (a gate, an activity line, a held input). */
function readText(dialog: Extract<Dialog, { kind: 'read' }>, width: number, bindings: Bindings): DialogText {
  // The text keeps its own lines (a Markdown body); long ones wrap.
  const body: Segment[][] = sanitize(dialog.text)
    .split('\n')
    .flatMap((l) => wrapText(l, width))
    .map((l): Segment[] => [{ text: l }]);
  return {
    title: sanitizeLine(dialog.title),
    body: [
      ...body,
      [],
      keysLine(bindings, [
        ['cancel', 'close'],
        ['down', 'scroll'],
      ]),
    ],
    tone: 'question',
  };
}

/** The straggler offer: who is still alive, and what force-terminating does. */
function offerText(
  dialog: Extract<Dialog, { kind: 'offer-terminate' }>,
  width: number,
  bindings: Bindings,
): DialogText {
  const body: Segment[][] = [
    ...wrapped(`Teammates of ${dialog.runId} still alive during the checkpoint:`, width, 'title'),
    ...dialog.alive.map((n): Segment[] => [{ text: '  • ', tone: 'accent' }, { text: sanitizeLine(n) }]),
    [],
    ...wrapped('Force-terminate them (SIGTERM, then SIGKILL, then kill-pane)?', width),
    [],
    keysLine(bindings, [
      ['confirm', 'terminate them'],
      ['cancel', 'leave them'],
    ]),
  ];
  return { title: 'Stragglers', body, tone: 'question' };
}

/** The prompt for a line to send to a member. */
function sendText(dialog: Extract<Dialog, { kind: 'send' }>, width: number, bindings: Bindings): DialogText {
  const body: Segment[][] = [
    ...wrapped(`Type a line to ${dialog.member} of ${dialog.runId}`, width, 'title'),
    [],
    [
      { text: '> ', tone: 'accent' },
      { text: sanitizeLine(dialog.text) + '▏', tone: 'title' },
    ],
    [],
    ...wrapped(
      'Enter plans it: the confirm dialog shows the exact keys; tower refuses while the pane shows a prompt.',
      width,
      'dim',
    ),
    [],
    keysLine(bindings, [
      ['accept', 'plan it'],
      ['dismiss', 'cancel'],
    ]),
  ];
  return { title: 'Send', body, tone: 'question' };
}

/** The prompt for a named checkpoint: its name and message. */
function requestText(dialog: Extract<Dialog, { kind: 'request' }>, width: number, bindings: Bindings): DialogText {
  const field = (name: 'name' | 'message', label: string): Segment[] => {
    const active = dialog.field === name;
    return [
      { text: active ? '> ' : '  ', tone: 'accent' },
      { text: label, tone: 'dim' },
      { text: sanitizeLine(dialog[name]) + (active ? '▏' : ''), tone: active ? 'title' : 'plain' },
    ];
  };
  const body: Segment[][] = [
    ...wrapped(`Open a named checkpoint on ${dialog.runId}`, width, 'title'),
    [],
    field('name', 'name:    '),
    ...(dialog.problem ? wrapped(`  ${dialog.problem}`, width, 'red') : []),
    field('message', 'message: '),
    [],
    keysLine(bindings, [
      ['accept', dialog.field === 'name' ? 'next' : 'plan it'],
      ['next-field', 'switch field'],
      ['dismiss', 'cancel'],
    ]),
  ];
  return { title: 'Request', body, tone: 'question' };
}

function refusalText(title: string, reason: string, width: number, bindings: Bindings): DialogText {
  const body: Segment[][] = [
    ...wrapped(title, width, 'title'),
    [],
    ...wrapped(reason, width, 'amber', '  '),
    [],
    keysLine(bindings, [['cancel', 'close']]),
  ];
  return { title: 'Refused', body, tone: 'refusal' };
}
