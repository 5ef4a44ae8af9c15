/** A pane line passed on with its colours: only read where pane lines cross between boxes. */
import { ESCAPE_SEQUENCES, stripControls } from './sanitize.js';

const PRINTABLE = /^[\u0020-\u007e]*$/;

// A colour or attribute escape (SGR), with a bounded parameter list.
const SGR_SEQUENCE = /\u001b\[[0-9;:]{0,64}m/g;
const ONLY_SGR = /^\u001b\[[0-9;:]{0,64}m$/;

/**
 * One line of a pane's capture made safe to pass on: its colour and attribute escapes (SGR) kept,
 * every other escape sequence and control character removed, invisible characters shown. What a
 * box sends of a pane is cleaned so there and again here; the screen draws only the SGR it reads.
 */
export function sgrOnlyLine(line: string): string {
  if (PRINTABLE.test(line)) return line;
  const kept = line.replace(ESCAPE_SEQUENCES, (seq) => (ONLY_SGR.test(seq) ? seq : ''));
  let out = '';
  let last = 0;
  for (const m of kept.matchAll(SGR_SEQUENCE)) {
    out += stripControls(kept.slice(last, m.index).replace(/[\r\n]+/g, ' ')) + m[0];
    last = m.index + m[0].length;
  }
  return out + stripControls(kept.slice(last).replace(/[\r\n]+/g, ' '));
}
