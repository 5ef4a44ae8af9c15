/**
 * Handoff content on demand: a read that met a tina handoff before its parser was loaded left the
 * content out (systems/tina/handoff-parser.ts). These load the parser the first time that happens,
 * so a box without handoffs, and the first frame, never load the Markdown library.
 */
import { handoffParserWanted, loadHandoffParser } from '../systems/tina/handoff-parser.js';

/** Whether the last reads left handoff content out for want of the parser. */
export function handoffsUnread(): boolean {
  return handoffParserWanted();
}

/** Loads the handoff parser; reads after it resolves parse handoffs. */
export function loadHandoffs(): Promise<void> {
  return loadHandoffParser();
}
