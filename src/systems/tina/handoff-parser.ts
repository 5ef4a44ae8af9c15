/**
 * The handoff parser as the readers reach it. The bundle replaces this module with one that loads the
 * Markdown parser (most of a `tower status` start's compiled code) on the first handoff it parses
 * (scripts/handoff-on-demand.js): a box whose runs have no handoff never compiles it.
 */
export { parseHandoff } from './handoff.js';
