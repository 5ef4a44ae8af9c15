/** Text from files and panes is untrusted: this is the one place it is made safe to print. */

// CSI / OSC / DCS / single-character escape sequences, then any other C0/C1 control character.
const ESCAPES =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b]*(?:\u001b\\)?|[@-Z\\-_])?|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// Bidi controls and zero-width characters: they reorder or hide text, so they are shown, never obeyed.
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** Bidi controls and zero-width characters written out visibly: `<U+202E>`. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** Strips control characters (keeping newlines, tabs as spaces) and shows invisible ones escaped. */
export function stripControls(text: string): string {
  return escapeInvisible(text.replace(/\t/g, '  ').replace(CONTROLS, ''));
}

// Printable ASCII (and newlines) holds nothing to strip or escape: most text read from state files
// is that, and a machine's worth of task files is tens of thousands of strings.
const PLAIN = /^[\u0020-\u007e\n]*$/;
const PLAIN_LINE = /^[\u0020-\u007e]*$/;

/** Strips escape sequences and control characters; keeps newlines and turns tabs into spaces. */
export function sanitize(text: string): string {
  if (PLAIN.test(text)) return text;
  return stripControls(text.replace(ESCAPES, ''));
}

/** The escape sequences sanitize removes (the preview keeps the SGR ones among them). */
export const ESCAPE_SEQUENCES = ESCAPES;

/** One line of untrusted text: sanitized, newlines folded to spaces. */
export function sanitizeLine(text: string): string {
  if (PLAIN_LINE.test(text)) return text;
  return sanitize(text).replace(/[\r\n]+/g, ' ');
}

/** One line of untrusted text for a problem row: sanitized, trimmed, at most `max` characters (… marks a cut). */
export function cappedLine(text: string, max: number): string {
  const chars = Array.from(sanitizeLine(text).trim() || 'no message');
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** A value of unknown type as display text (numbers and booleans stringified, objects refused). */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return sanitizeLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}
