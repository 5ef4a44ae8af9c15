/**
 * Handoff Markdown read by micromark with GitHub's extensions (tables, task lists), as mdast. Loaded
 * on demand (markdown.ts) the first time a handoff's content is needed: a snapshot's handoff time and
 * path need no parse, so neither `tower status` on a box without handoffs nor the first frame pays
 * for the parser.
 */
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** Nesting deeper than this (columns of indentation and `>`) is flattened: no handoff needs it. */
const MAX_NESTING_COLUMNS = 80;
const TOO_DEEP = new RegExp(`^[ \\t>]{${MAX_NESTING_COLUMNS + 1},}`, 'gm');

/** The text with runs of indentation and `>` longer than MAX_NESTING_COLUMNS cut to that length. */
export function flattenNesting(text: string): string {
  return text.replace(TOO_DEEP, (run) => run.slice(0, MAX_NESTING_COLUMNS));
}

/**
 * Inline constructs a handoff has no use for, left as text: `**Key:**` stays literal for boldFields,
 * and links, HTML and footnotes never become structure.
 */
const UNUSED_CONSTRUCTS = [
  'attention',
  'labelStartLink',
  'labelStartImage',
  'labelEnd',
  'definition',
  'htmlText',
  'htmlFlow',
  'autolink',
  'strikethrough',
  'emailAutolink',
  'protocolAutolink',
  'wwwAutolink',
  'gfmFootnoteCall',
  'gfmPotentialFootnoteCall',
  'gfmFootnoteDefinition',
];

/** Markdown as mdast; a byte order mark at the start is dropped and NUL reads as U+FFFD. */
export function readMarkdown(text: string): Root {
  const clean = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\0/g, '\ufffd');
  return fromMarkdown(flattenNesting(clean), {
    extensions: [gfm(), { disable: { null: UNUSED_CONSTRUCTS } }],
    mdastExtensions: [gfmFromMarkdown()],
  });
}
