/**
 * The handoff parser, loaded on demand. Reading a handoff's content needs the Markdown library
 * (micromark and mdast-util-from-markdown with GitHub's tables), most of what a read would otherwise
 * load and compile; a handoff's time and path need no parse. The readers are synchronous, so a read
 * that meets a handoff before the parser is loaded leaves its content out and asks for the parser;
 * whoever drives the reads loads it (loadHandoffParser) and reads again (store/handoffs.ts).
 */
import type { parseHandoff } from './handoff.js';

type Parse = typeof parseHandoff;

let parse: Parse | null = null;
let loading: Promise<void> | null = null;
let wanted = false;
let failed = false;

/** The parser when it is loaded; null (and the parser marked as wanted) when it is not yet. */
export function loadedHandoffParser(): Parse | null {
  if (parse === null) wanted = true;
  return parse;
}

/**
 * Whether a read met a handoff whose content it could not parse because the parser was not loaded
 * (and loading it has not failed: a missing chunk is reported once, not retried on every read).
 */
export function handoffParserWanted(): boolean {
  return wanted && parse === null && !failed;
}

/** Loads the parser (once); resolves when reads can parse handoffs. */
export function loadHandoffParser(): Promise<void> {
  loading ??= import('./handoff.js').then(
    (m) => {
      parse = m.parseHandoff;
    },
    (err: unknown) => {
      failed = true;
      throw err;
    },
  );
  return loading;
}
