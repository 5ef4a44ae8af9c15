/** Text from files and panes is untrusted: this is the one place it is made safe to print. */

// CSI / OSC / DCS / single-character escape sequences, then any other C0/C1 control character.
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Strips escape sequences and control characters; keeps newlines and turns tabs into spaces. */
export function sanitize(text: string): string {
  return text.replace(ESCAPES, '').replace(/\t/g, '  ').replace(CONTROLS, '');
}

/** One line of untrusted text: sanitized, newlines folded to spaces. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\r\n]+/g, ' ');
}

/** A value of unknown type as display text (numbers and booleans stringified, objects refused). */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return sanitizeLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}
