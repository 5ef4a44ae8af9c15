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

/**
 * `.resume-signal` as the orchestrator acts on it. bin/orchestrate-v2.sh (kwg/sage-method 651c8fd)
 * takes the word after `STATUS:` (`STATUS:\s*\w+`, case-sensitive) and branches on REVISE, DISCUSS
 * and HALT; anything else, a lower-case word, the webhook's JSON `{"status": ...}` or no STATUS line
 * at all, goes on as APPROVED. `value` is what the orchestrator will do; `written` what the file says
 * when that differs, with a problem saying so.
 */
export function parseResumeSignal(
  raw: string,
  file: string,
): { value: ResumeStatus; written: string | null; problems: Problem[] } {
  const word = /STATUS:\s*(\w+)/.exec(raw)?.[1] ?? null;
  const status = RESUME_STATUSES.find((s) => s === word);
  if (status) return { value: status, written: null, problems: [] };
  const json = jsonStatus(raw);
  const written = sanitizeLine(
    word !== null
      ? `STATUS: ${word}`
      : json !== null
        ? `{"status": ${JSON.stringify(json)}}`
        : (raw.trim().split('\n')[0] ?? ''),
  ).slice(0, 60);
  const what = raw.trim() === '' ? 'an empty file' : `"${written}"`;
  return {
    value: 'APPROVED',
    written: written === '' ? null : written,
    problems: [
      {
        file,
        message: `the orchestrator reads only a \`STATUS: WORD\` line, case-sensitively: ${what} goes on as APPROVED`,
      },
    ],
  };
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
