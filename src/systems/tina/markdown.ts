/** Markdown structure of a tina handoff: the mdast tree cut into named sections, and plain text of nodes. */
import type { List, ListItem, Nodes, Paragraph, Root, RootContent, Table } from 'mdast';
import { deferUntil } from '../deferred.js';

/** A `##` section of the handoff: its normalized heading and the nodes under it (sub-headings included). */
export interface Section {
  key: string;
  nodes: RootContent[];
}

type MarkdownReader = (text: string) => Root;
let reader: MarkdownReader | null = null;
let loading: Promise<void> | null = null;
/** A load that failed (a chunk missing from a broken install) is not asked for again on every read. */
let failed = false;

/** Starts loading the Markdown reader (once). */
function loadReader(): Promise<void> {
  loading ??= import('./markdown-reader.js').then(
    (m) => {
      reader = m.readMarkdown;
    },
    (err: unknown) => {
      failed = true;
      throw err;
    },
  );
  return loading;
}

/**
 * The Markdown reader (micromark, markdown-reader.ts) when it is loaded; else null, and its load is
 * recorded as work whoever builds the snapshot starts and waits for (systems/deferred.ts).
 */
export function markdownReader(): MarkdownReader | null {
  if (reader) return reader;
  if (!failed) deferUntil(loadReader);
  return null;
}

/** Loads the Markdown reader now (a caller that reads handoffs synchronously right after). */
export async function loadMarkdownReader(): Promise<void> {
  if (!reader) await loadReader();
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
export function splitSections(
  root: Root,
  known: ReadonlySet<string>,
): { preamble: RootContent[]; sections: Section[] } {
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
