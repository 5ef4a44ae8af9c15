/** The blocks tower's handoff reader builds while it reads lines, before they become an mdast tree. */
import type { AlignType, BlockContent, Code, List, ListItem, Root, RootContent, Table, TableCell, TableRow } from 'mdast';
import { decodeText, parseInline } from './markdown-inline.js';
import { rowCells } from './markdown-table.js';

/** Blocks that hold blocks. `blank`: a blank line came since the last line read inside. */
export interface RootBlock {
  kind: 'root';
  children: ChildBlock[];
}
export interface QuoteBlock {
  kind: 'quote';
  children: ChildBlock[];
  blank: boolean;
}
export interface ListBlock {
  kind: 'list';
  ordered: boolean;
  /** The bullet character or the delimiter after the number: items with another one start a new list. */
  marker: string;
  start: number | null;
  children: ItemBlock[];
  spread: boolean;
  blank: boolean;
}
export interface ItemBlock {
  kind: 'item';
  /** The column the item's content starts at, relative to its container's. */
  width: number;
  children: ChildBlock[];
  spread: boolean;
  blank: boolean;
}

/** Leaf blocks; `lines` and `ends` hold each line read into them and its line ending. */
export interface ParagraphBlock {
  kind: 'para';
  lines: string[];
  ends: string[];
}
export interface HeadingBlock {
  kind: 'heading';
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  text: string;
}
export interface FenceBlock {
  kind: 'fence';
  char: string;
  size: number;
  indent: number;
  info: string;
  lines: string[];
  ends: string[];
}
export interface IndentedBlock {
  kind: 'indented';
  lines: string[];
  ends: string[];
}
export interface TableBlock {
  kind: 'table';
  align: AlignType[];
  rows: string[];
}
export interface RuleBlock {
  kind: 'rule';
}

export type ContainerBlock = RootBlock | QuoteBlock | ListBlock | ItemBlock;
export type Block = ContainerBlock | ParagraphBlock | HeadingBlock | FenceBlock | IndentedBlock | TableBlock | RuleBlock;
/** Any block but the root. */
export type ChildBlock = Exclude<Block, RootBlock>;

/** Lines joined by their own line endings, without the last one's. */
function joined(lines: string[], ends: string[]): string {
  let out = lines[0] ?? '';
  for (let i = 1; i < lines.length; i++) out += (ends[i - 1] ?? '') + lines[i];
  return out;
}

function code(lines: string[], ends: string[], info: string | null): Code {
  // The first word is the language; the rest, from its first non-space character, is meta (trailing spaces kept).
  const trimmed = info === null ? '' : info.replace(/^[ \t]+/, '');
  const space = trimmed.search(/[ \t]/);
  const lang = trimmed === '' ? null : decodeText(space === -1 ? trimmed : trimmed.slice(0, space));
  const rest = space === -1 ? '' : trimmed.slice(space).replace(/^[ \t]+/, '');
  const meta = rest === '' ? null : decodeText(rest);
  return { type: 'code', lang, meta, value: joined(lines, ends) };
}

/** GitHub's task check at the head of an item's first paragraph: `[ ]`, `[x]` or `[X]`, then a space and more text. */
const TASK_CHECK = /^\[([ \txX])\](?=\r|\n|[ \t]+[^ \t])/;

function item(block: ItemBlock): ListItem {
  let checked: boolean | null = null;
  const children = block.children.map((child, i) => {
    if (i !== 0 || child.kind !== 'para') return toNode(child);
    const text = joined(child.lines, child.ends);
    const m = TASK_CHECK.exec(text);
    if (!m) return toNode(child);
    checked = m[1] === 'x' || m[1] === 'X';
    const inline = parseInline(text.slice(3));
    // The whitespace after the check is not part of the item's text.
    const head = inline[0];
    if (head?.type === 'text') {
      head.value = head.value.slice(1);
      if (head.value === '') inline.shift();
    }
    return { type: 'paragraph' as const, children: inline };
  });
  return { type: 'listItem', spread: block.spread, checked, children: children as BlockContent[] };
}

function table(block: TableBlock): Table {
  const rows: TableRow[] = block.rows.map((line) => ({
    type: 'tableRow',
    children: rowCells(line).map((cell): TableCell => ({ type: 'tableCell', children: parseInline(cell.replace(/^[ \t]+|[ \t]+$/g, ''), true) })),
  }));
  return { type: 'table', align: block.align, children: rows };
}

/** The mdast node of a block. */
export function toNode(block: ChildBlock): RootContent {
  switch (block.kind) {
    case 'quote':
      return { type: 'blockquote', children: block.children.map(toNode) as BlockContent[] };
    case 'list': {
      const list: List = { type: 'list', ordered: block.ordered, start: block.start, spread: block.spread, children: block.children.map(item) };
      return list;
    }
    case 'item':
      return item(block);
    case 'para':
      return { type: 'paragraph', children: parseInline(joined(block.lines, block.ends)) };
    case 'heading':
      return { type: 'heading', depth: block.depth, children: parseInline(block.text) };
    case 'fence':
      return code(block.lines, block.ends, block.info);
    case 'indented': {
      let n = block.lines.length;
      // Trailing blank lines go; a line with whitespace beyond the code's indentation stays.
      while (n > 0 && block.lines[n - 1] === '') n--;
      return code(block.lines.slice(0, n), block.ends, null);
    }
    case 'table':
      return table(block);
    case 'rule':
      return { type: 'thematicBreak' };
  }
}

/** The mdast root of the blocks read. */
export function toRoot(root: RootBlock): Root {
  return { type: 'root', children: root.children.map(toNode) };
}
