/**
 * SAGE signals: what agents print to the terminal (three forms) and the small signal files in
 * `.sage/state/` (`.last_signal`, `.resume-signal`). Pure text parsing, no disk access.
 */
import type { Problem } from '../../model/model.js';
import { sanitize, sanitizeLine } from '../../text/sanitize.js';

/** One signal: `SAGE_SIGNAL:<type>[:<payload>]` with the `KEY: value` lines of a box or block. */
export interface SageSignal {
  /** HITL_REQUIRED, CHECKPOINT, EPIC_COMPLETE, FATAL_ERROR, ... */
  type: string;
  /** What follows the type after a colon (`WRITE` of CHECKPOINT:WRITE, `issue:42`), or null. */
  payload: string | null;
  /** The `KEY: value` lines of a box or block form; {} for the one-line form. */
  fields: Record<string, string>;
}

const TYPE = '([A-Z][A-Z0-9_]*)';
// ═══ SAGE_SIGNAL:CHECKPOINT ═══  (the payload, when any, sits inside the rules)
const BOX_OPEN = new RegExp(`^═{2,}\\s*SAGE_SIGNAL:${TYPE}(?::(.*?))?\\s*═{2,}$`);
const BOX_CLOSE = /^═{3,}$/;
const RULE = /^={4,}$/;
// A signal line may carry a prefix the agent's UI adds ("⏺ "), but nothing word-like before it.
const ONE_LINE = new RegExp(`^[^A-Za-z0-9]*?SAGE_SIGNAL:${TYPE}(?::(.*))?$`);
const FIELD = /^([A-Za-z][A-Za-z0-9_ .-]{0,63}):\s?(.*)$/;

function payloadOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const p = sanitizeLine(raw).trim();
  return p === '' ? null : p;
}

/**
 * Every signal in `text` (a pane capture or a log), in order: the box
 * (`═══ SAGE_SIGNAL:X ═══`, `KEY: value` lines, a `═══…` line), the block (`====`,
 * `SAGE_SIGNAL:X`, `key: value` lines, `====`) and the one-line form. A cut-off box or block
 * still yields its signal with the fields seen so far.
 */
export function parseSageSignals(text: string): SageSignal[] {
  // Colour codes around a signal must not hide it: strip escapes before matching.
  const lines = sanitize(text)
    .split('\n')
    .map((l) => l.trim());
  const out: SageSignal[] = [];
  let prev = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const box = BOX_OPEN.exec(line);
    const one = box ? null : ONE_LINE.exec(line);
    const m = box ?? one;
    if (!m) {
      if (line !== '') prev = line;
      continue;
    }
    const closing = box ? BOX_CLOSE : RULE.test(prev) ? RULE : null;
    const fields: [string, string][] = [];
    if (closing) {
      // Collect KEY: value lines up to the closing rule; stop early at anything else.
      while (i + 1 < lines.length) {
        const next = lines[i + 1] ?? '';
        if (closing.test(next)) {
          i++;
          break;
        }
        const f = FIELD.exec(next);
        if (!f) break;
        fields.push([sanitizeLine(f[1] ?? '').trim(), sanitizeLine(f[2] ?? '').trim()]);
        i++;
      }
    }
    out.push({ type: m[1] ?? '', payload: payloadOf(m[2]), fields: Object.fromEntries(fields) });
    prev = '';
  }
  return out;
}

/**
 * The content of `.last_signal`: a bare `HITL_REQUIRED`, `CHECKPOINT:WRITE`,
 * `SAGE_SIGNAL:HITL_REQUIRED[:payload]`, or a whole printed signal. Null when it names none.
 */
export function parseLastSignal(raw: string, file: string): { value: SageSignal | null; problems: Problem[] } {
  const printed = parseSageSignals(raw);
  const last = printed[printed.length - 1];
  if (last) return { value: last, problems: [] };
  const first = sanitize(raw)
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (first === undefined) return { value: null, problems: [] };
  const m = new RegExp(`^${TYPE}(?::(.*))?$`).exec(first);
  if (!m)
    return { value: null, problems: [{ file, message: `unrecognised signal "${sanitizeLine(first).slice(0, 80)}"` }] };
  return { value: { type: m[1] ?? '', payload: payloadOf(m[2]), fields: {} }, problems: [] };
}

/** The operator's answer at a human gate. */
export const RESUME_STATUSES = ['APPROVED', 'REVISE', 'DISCUSS', 'HALT'] as const;
export type ResumeStatus = (typeof RESUME_STATUSES)[number];

/** What the orchestrator does with an answer it read (bin/orchestrate-v2.sh `case "$status"`). */
function actedOn(read: string): ResumeStatus {
  // Its four words exactly; anything else is "Unknown status: … - treating as approved".
  return RESUME_STATUSES.find((s) => s === read) ?? 'APPROVED';
}

/**
 * What an answer says, whatever the orchestrator makes of it: the word after `status` in any case
 * (`STATUS: rejected`, the webhook's `{"status": "REVISE"}`), else its first line; upper-cased.
 */
function saidBy(raw: string): string {
  const word = /\bstatus"?\s*[:=]\s*"?(\w+)/i.exec(raw)?.[1];
  return (word ?? raw.trim().split('\n')[0] ?? '').trim().toUpperCase();
}

/**
 * The answer the orchestrator reads from `.resume-signal` (bin/orchestrate-v2.sh
 * `wait_for_resume_signal`, kwg/sage-method 651c8fd): the first `STATUS:\s*\w+` match
 * (`grep -oP`, case-sensitive), else the file's first line upper-cased (`tr | head -1`).
 */
export function resumeStatusRead(raw: string): string {
  // `$(cat …)` drops trailing newlines; grep matches line by line, so `\s*` never crosses one.
  const text = raw.replace(/\n+$/, '');
  for (const line of text.split('\n')) {
    const m = /STATUS:\s*(\w+)/.exec(line);
    if (m) return m[1] ?? '';
  }
  return (text.split('\n')[0] ?? '').replace(/[a-z]+/g, (w) => w.toUpperCase());
}

/**
 * `.resume-signal` as the orchestrator acts on it: REVISE, DISCUSS and HALT as read (see
 * resumeStatusRead), anything else goes on as APPROVED. So `STATUS: APPROVED`, a bare `approved`
 * and the webhook receiver's `{"status": "APPROVED", …}` all approve, as they say. `value` is what
 * the orchestrator will do; `written` what the file says when that differs (a lower-case
 * `STATUS: rejected`, the webhook's `{"status": "HALT"}`, an empty file), with a problem saying so.
 */
export function parseResumeSignal(
  raw: string,
  file: string,
): { value: ResumeStatus; written: string | null; problems: Problem[] } {
  const value = actedOn(resumeStatusRead(raw));
  const said = saidBy(raw);
  if (said === value) return { value, written: null, problems: [] };
  const json = jsonStatus(raw);
  const word = /STATUS:\s*(\w+)/.exec(raw)?.[1] ?? null;
  const written = sanitizeLine(
    word !== null
      ? `STATUS: ${word}`
      : json !== null
        ? `{"status": ${JSON.stringify(json)}}`
        : (raw.trim().split('\n')[0] ?? ''),
  ).slice(0, 60);
  const what = raw.trim() === '' ? 'an empty file' : `"${written}"`;
  return {
    value,
    written: written === '' ? null : written,
    problems: [
      {
        file,
        message:
          `the orchestrator acts only on a \`STATUS: WORD\` line in capitals (or the word ` +
          `alone): ${what} goes on as ${value}`,
      },
    ],
  };
}

/** What the orchestrator did with an answer its log says it read (`Resume status: <what it read>`). */
export function loggedResume(read: string): { status: ResumeStatus; written: string | null } {
  const status = actedOn(read);
  return { status, written: saidBy(read) === status ? null : sanitizeLine(read).slice(0, 60) };
}

/** The `status` of a JSON resume signal, or null when the text is no such object. */
function jsonStatus(raw: string): string | null {
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    const status = (v as Record<string, unknown>).status;
    return typeof status === 'string' ? status : null;
  } catch {
    return null;
  }
}
