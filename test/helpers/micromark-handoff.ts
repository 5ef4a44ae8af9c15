/**
 * The Markdown parser tower read handoffs with before it had its own (micromark with GitHub's
 * extensions, the same inline constructs turned off), kept for tests as the oracle the own reader is
 * compared with. Not part of the runtime.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Root } from 'mdast';
import { parseHandoff } from '../../src/systems/tina/handoff.js';
import { flattenNesting } from '../../src/systems/tina/markdown.js';

/** Inline constructs a handoff has no use for, turned off as the runtime reader leaves them out. */
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

/** Markdown as micromark and mdast-util-from-markdown read it, after the same flattening of deep nesting. */
export function micromarkParse(text: string): Root {
  return fromMarkdown(flattenNesting(text), {
    extensions: [gfm(), { disable: { null: UNUSED_CONSTRUCTS } }],
    mdastExtensions: [gfmFromMarkdown()],
  });
}

/** parseHandoff reading its Markdown with micromark. */
export function micromarkHandoff(text: string, file: string): ReturnType<typeof parseHandoff> {
  return parseHandoff(text, file, micromarkParse);
}

/** A tree without positions (and, with `spread` false, without the list looseness flags), for comparing. */
export function bareTree(node: unknown, spread = true): unknown {
  if (Array.isArray(node)) return node.map((n) => bareTree(n, spread));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'position' || (!spread && k === 'spread')) continue;
    out[k] = bareTree(v, spread);
  }
  return out;
}
