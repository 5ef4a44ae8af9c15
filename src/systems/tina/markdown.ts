/**
 * Markdown structure of a tina handoff: the text read into an mdast tree by micromark and
 * mdast-util-from-markdown (with GitHub's tables and task lists), the tree cut into named sections,
 * and plain text of nodes. This module is loaded only when a handoff's content is read
 * (handoff-parser.ts): the library is most of what reading a handoff loads.
 */
import type { List, ListItem, Nodes, Paragraph, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** A `##` section of the handoff: its normalized heading and the nodes under it (sub-headings included). */
export interface Section {
  key: string;
  nodes: RootContent[];
}

/** Nesting deeper than this (columns of indentation and `>`) is flattened: no handoff needs it. */
const MAX_NESTING_COLUMNS = 80;
const TOO_DEEP = new RegExp(`^[ \\t>]{${MAX_NESTING_COLUMNS + 1},}`, 'gm');

/** The text with runs of indentation and `>` longer than MAX_NESTING_COLUMNS cut to that length. */
export function flattenNesting(text: string): string {
  return text.replace(TOO_DEEP, (run) => run.slice(0, MAX_NESTING_COLUMNS));
}

/**
 * Inline constructs a handoff has no use for, turned off: their text stays literal, so `**Key:**`
 * reaches boldFields as written and a stray `[`, `<` or `*` never changes what a line says.
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

/**
 * Parses Markdown with GitHub tables and task lists; inline markup other than code spans, escapes
 * and character references is kept as text. Deep nesting is flattened first (flattenNesting).
 */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(flattenNesting(text), {
    extensions: [gfm(), { disable: { null: UNUSED_CONSTRUCTS } }],
    mdastExtensions: [gfmFromMarkdown()],
  });
}

/** "## Task States:" → "task states". */
export function normalizeHeading(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*_`:#]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Cuts the document into sections. A heading whose text is one of `known` starts a section at any depth;
 * other headings of depth 1–2 start a section of their own; deeper ones stay inside the current section
 * (the `### Completed` lists of a `## Task State`). Nodes before the first section go to the preamble.
 */
export function splitSections(root: Root, known: ReadonlySet<string>): { preamble: RootContent[]; sections: Section[] } {
  const preamble: RootContent[] = [];
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const node of root.children) {
    if (node.type === 'heading') {
      const key = normalizeHeading(nodeText(node));
      if (known.has(key) || node.depth <= 2) {
        current = { key, nodes: [] };
        sections.push(current);
        continue;
      }
    }
    if (current) current.nodes.push(node);
    else preamble.push(node);
  }
  return { preamble, sections };
}

/** The plain text of a node: text, inline code and code values; line breaks as newlines. */
export function nodeText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
    case 'html':
      return node.value;
    case 'break':
      return '\n';
    case 'image':
      return node.alt ?? '';
    default:
      break;
  }
  if (!('children' in node)) return '';
  const parts = (node.children as Nodes[]).map(nodeText);
  // Block children (paragraphs of a list item, items of a list) are separate lines.
  const block = node.type === 'listItem' || node.type === 'list' || node.type === 'root' || node.type === 'blockquote';
  return parts.join(block ? '\n' : '');
}

/** The text of a list item without its nested lists. */
export function itemOwnText(item: ListItem): string {
  return item.children
    .filter((c) => c.type !== 'list')
    .map(nodeText)
    .join('\n');
}

/** The items of the lists nested in a list item. */
export function subItems(item: ListItem): ListItem[] {
  return item.children.filter((c): c is List => c.type === 'list').flatMap((l) => l.children);
}

/** A table as rows of cell text; the first row is the header. */
export function tableRows(table: Table): string[][] {
  return table.children.map((row) => row.children.map((cell) => nodeText(cell).trim()));
}

/**
 * `**Key:** value` lines of a paragraph (seed 003 writes the checkpoint time and plan path this way);
 * also `**Key**: value` and `__Key:__ value`. Keys are normalized like headings.
 */
export function boldFields(paragraph: Paragraph): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of nodeText(paragraph).split('\n')) {
    const m = /^\s*(\*\*|__)([^*_]{1,80}?)\1\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = normalizeHeading(m[2] ?? '');
    const value = (m[3] ?? '').replace(/^:/, '').trim();
    if (key !== '' && !fields.has(key)) fields.set(key, value);
  }
  return fields;
}
