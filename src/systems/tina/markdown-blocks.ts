/**
 * tower's own Markdown block reader for handoffs: the CommonMark block structure (block quotes, lists,
 * ATX and setext headings, fenced and indented code, thematic breaks, paragraphs) plus GitHub tables
 * and task checks, in one pass over the lines. HTML blocks, link reference definitions and footnotes
 * are not recognized: their lines read as paragraphs, as they did when those constructs were turned off.
 */
import type { Root } from 'mdast';
import { LineCursor } from './markdown-line.js';
import { delimiterRow, rowCells } from './markdown-table.js';
import { toRoot } from './markdown-block-types.js';
import type { Block, ChildBlock, ContainerBlock, FenceBlock, ItemBlock, ParagraphBlock, RootBlock } from './markdown-block-types.js';

/** Containers nested deeper than this are read as text: each open one is checked on every line. */
const MAX_OPEN_CONTAINERS = 100;

type Continued = 'yes' | 'no' | 'done';
type Started = 'none' | 'container' | 'leaf' | 'consumed';

const isSpaceOrTab = (c: string | undefined): boolean => c === ' ' || c === '\t';
const canHold = (b: Block): b is ContainerBlock => b.kind === 'root' || b.kind === 'quote' || b.kind === 'list' || b.kind === 'item';

class BlockReader {
  private readonly root: RootBlock = { kind: 'root', children: [] };
  private readonly stack: Block[] = [this.root];
  private readonly cur = new LineCursor();
  private end = '';
  private lastMatched = 0;
  private allClosed = true;
  /** Whether a block started on this line interrupted a paragraph: containers it opens are held to the same rules. */
  private interrupting = false;
  /** The line from where the last block prefix ended, leading whitespace included (a paragraph keeps it for code spans). */
  private unstripped = '';

  read(text: string): Root {
    const lineEnd = /\r\n|\r|\n/g;
    let from = 0;
    for (let m = lineEnd.exec(text); m; m = lineEnd.exec(text)) {
      this.line(text.slice(from, m.index), m[0]);
      from = m.index + m[0].length;
    }
    if (from < text.length) this.line(text.slice(from), '');
    return toRoot(this.root);
  }

  private tip(): Block {
    return this.stack[this.stack.length - 1] ?? this.root;
  }

  private line(text: string, end: string): void {
    const cur = this.cur;
    cur.reset(text);
    this.end = end;
    const blankLine = /^[ \t]*$/.test(text);
    let matched = 0;
    for (let k = 1; k < this.stack.length; k++) {
      cur.findNextNonspace();
      const r = this.continues(this.stack[k] ?? this.root);
      if (r === 'done') return;
      if (r === 'no') break;
      matched = k;
    }
    this.lastMatched = matched;
    this.allClosed = matched === this.stack.length - 1;
    let container = this.stack[matched] ?? this.root;

    let leaf = container.kind === 'fence' || container.kind === 'indented';
    // As micromark has it: a paragraph going on, or indented code just left, holds new lists to the rules of interrupting.
    this.interrupting = container.kind === 'para' || this.tip().kind === 'indented';
    while (!leaf) {
      cur.findNextNonspace();
      const r = this.start(container);
      if (r === 'consumed') return this.touched(blankLine);
      if (r === 'none') {
        this.unstripped = cur.rest();
        cur.advanceNextNonspace();
        break;
      }
      container = this.tip();
      leaf = r === 'leaf';
    }

    const tip = this.tip();
    if (!this.allClosed && !cur.blank && tip.kind === 'para') {
      this.addLine(tip, this.unstripped); // a lazy continuation line
      return this.touched(false);
    }
    this.closeUnmatched();
    if (container.kind === 'para') this.addLine(container, this.unstripped);
    else if (container.kind === 'fence' || container.kind === 'indented') this.addLine(container, cur.rest());
    else if (container.kind === 'table') {
      if (!cur.blank) container.rows.push(cur.rest());
    } else if (!cur.blank) {
      cur.advanceNextNonspace();
      const para: ParagraphBlock = { kind: 'para', lines: [], ends: [] };
      this.add(para);
      this.addLine(para, cur.rest());
    }
    this.touched(blankLine);
  }

  /** Marks the open containers: a blank line came, or content did. */
  private touched(blank: boolean): void {
    for (const b of this.stack) if (b.kind !== 'root' && canHold(b)) b.blank = blank;
  }

  private addLine(b: ParagraphBlock | FenceBlock | { kind: 'indented'; lines: string[]; ends: string[] }, line: string): void {
    b.lines.push(line);
    b.ends.push(this.end);
  }

  private closeUnmatched(): void {
    if (this.allClosed) return;
    this.stack.length = this.lastMatched + 1;
    this.allClosed = true;
  }

  /** Adds a block to the innermost open block that can hold it, closing those that can't. */
  private add(block: ChildBlock): void {
    let parent = this.tip();
    while (!canHold(parent) || (parent.kind === 'list') !== (block.kind === 'item')) {
      this.stack.pop();
      parent = this.tip();
    }
    if (parent.kind === 'item' && parent.blank && parent.children.length > 0) parent.spread = true;
    if (parent.kind === 'list') {
      const last = parent.children[parent.children.length - 1];
      if (last?.blank) parent.spread = true;
      parent.children.push(block as ItemBlock);
    } else parent.children.push(block);
    if (block.kind !== 'heading' && block.kind !== 'rule') this.stack.push(block);
  }

  /** Whether an open block goes on on this line (its prefix consumed); 'done' when the line closed it. */
  private continues(b: Block): Continued {
    const cur = this.cur;
    switch (b.kind) {
      case 'quote':
        if (cur.indent >= 4 || cur.peekNonspace() !== '>') return 'no';
        cur.advanceNextNonspace();
        cur.advance(1);
        if (isSpaceOrTab(cur.text[cur.offset])) cur.advance(1, true);
        return 'yes';
      case 'item':
        if (cur.blank) {
          // An item can begin with one blank line, not two; the blank still loosens its list.
          if (b.children.length === 0) {
            b.blank = true;
            return 'no';
          }
          cur.advanceNextNonspace();
          return 'yes';
        }
        if (cur.indent < b.width) return 'no';
        cur.advance(b.width, true);
        return 'yes';
      case 'fence': {
        const close = cur.indent <= 3 && cur.peekNonspace() === b.char ? /^(`+|~+)[ \t]*$/.exec(cur.restNonspace()) : null;
        if (close && (close[1]?.length ?? 0) >= b.size) {
          this.stack.pop();
          return 'done';
        }
        for (let k = b.indent; k > 0 && isSpaceOrTab(cur.text[cur.offset]); k--) cur.advance(1, true);
        return 'yes';
      }
      case 'indented':
        if (cur.indent >= 4) cur.advance(4, true);
        else if (cur.blank) cur.advanceNextNonspace();
        else return 'no';
        return 'yes';
      case 'para':
      case 'table':
        return cur.blank ? 'no' : 'yes';
      default:
        return 'yes';
    }
  }

  /** Starts a block at the line's position if one begins there. */
  private start(container: Block): Started {
    const cur = this.cur;
    const c = cur.peekNonspace();
    if (cur.indent >= 4) {
      if (this.tip().kind === 'para' || cur.blank) return 'none';
      cur.advance(4, true);
      this.closeUnmatched();
      this.add({ kind: 'indented', lines: [], ends: [] });
      return 'leaf';
    }
    const rest = cur.restNonspace();
    const deep = this.stack.length >= MAX_OPEN_CONTAINERS;
    if (c === '>' && !deep) {
      cur.advanceNextNonspace();
      cur.advance(1);
      if (isSpaceOrTab(cur.text[cur.offset])) cur.advance(1, true);
      this.closeUnmatched();
      this.add({ kind: 'quote', children: [], blank: false });
      return 'container';
    }
    if (c === '#') {
      const m = /^#{1,6}(?:[ \t]+|$)/.exec(rest);
      if (m) {
        this.closeUnmatched();
        const text = rest.slice(m[0].length).replace(/^[ \t]*#+[ \t]*$/, '').replace(/[ \t]+#+[ \t]*$/, '');
        this.add({ kind: 'heading', depth: m[0].trim().length as 1 | 2 | 3 | 4 | 5 | 6, text });
        return 'consumed';
      }
    }
    if (c === '`' || c === '~') {
      const m = /^`{3,}(?!.*`)|^~{3,}/.exec(rest);
      if (m) {
        this.closeUnmatched();
        this.add({ kind: 'fence', char: c, size: m[0].length, indent: cur.indent, info: rest.slice(m[0].length), lines: [], ends: [] });
        return 'consumed';
      }
    }
    if (container.kind === 'para' && (c === '=' || c === '-') && /^(?:=+|-+)[ \t]*$/.test(rest)) {
      this.stack.pop();
      const text = container.lines.map((l, i) => (i === 0 ? l : (container.ends[i - 1] ?? '') + l)).join('');
      const parent = this.tip() as ContainerBlock;
      parent.children[parent.children.length - 1] = { kind: 'heading', depth: c === '=' ? 1 : 2, text };
      return 'consumed';
    }
    if ((c === '*' || c === '-' || c === '_') && /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(rest)) {
      this.closeUnmatched();
      this.add({ kind: 'rule' });
      return 'consumed';
    }
    if (!deep && this.listItem(container, rest)) return 'container';
    // Last: a list item (`- |`) comes before a delimiter row, as containers are read before what they hold.
    if (container.kind === 'para' && (c === '|' || c === ':' || c === '-') && this.table(container, rest)) return 'consumed';
    return 'none';
  }

  /** A delimiter row under a paragraph whose last line has as many cells: that line becomes a table's header. */
  private table(para: ParagraphBlock, rest: string): boolean {
    const align = delimiterRow(rest);
    const header = para.lines[para.lines.length - 1];
    if (!align || header === undefined) return false;
    // A header needs more than a lone pipe.
    const cells = /^[ \t]*\|?[ \t]*$/.test(header) ? 0 : rowCells(header).length;
    if (cells === 0 || cells !== align.length) return false;
    para.lines.pop();
    para.ends.pop();
    this.stack.pop();
    if (para.lines.length === 0) {
      const parent = this.tip() as ContainerBlock;
      parent.children.pop();
    }
    this.add({ kind: 'table', align, rows: [header] });
    return true;
  }

  private listItem(container: Block, rest: string): boolean {
    const cur = this.cur;
    const ordered = /^(\d{1,9})([.)])/.exec(rest);
    const bullet = /^[*+-]/.exec(rest);
    const interrupts = this.interrupting;
    if (!bullet && (!ordered || (interrupts && ordered[1] !== '1'))) return false;
    const size = bullet ? 1 : (ordered?.[0].length ?? 0);
    const after = rest[size];
    if (after !== undefined && !isSpaceOrTab(after)) return false;
    if (interrupts && /^[ \t]*$/.test(rest.slice(size))) return false;

    const markerOffset = cur.indent;
    cur.advanceNextNonspace();
    cur.advance(size, true);
    const startColumn = cur.column;
    const startOffset = cur.offset;
    do cur.advance(1, true);
    while (cur.column - startColumn < 5 && isSpaceOrTab(cur.text[cur.offset]));
    const spaces = cur.column - startColumn;
    let padding = size + spaces;
    if (spaces >= 5 || spaces < 1 || cur.offset >= cur.text.length) {
      padding = size + 1;
      cur.column = startColumn;
      cur.offset = startOffset;
      cur.partialTab = false;
      if (isSpaceOrTab(cur.text[cur.offset])) cur.advance(1, true);
    }

    this.closeUnmatched();
    const marker = bullet ? bullet[0] : (ordered?.[2] ?? '.');
    const tip = this.tip();
    if (tip.kind !== 'list' || tip.ordered !== !bullet || tip.marker !== marker) {
      const start = bullet ? null : Number(ordered?.[1] ?? '1');
      this.add({ kind: 'list', ordered: !bullet, marker, start, children: [], spread: false, blank: false });
    }
    this.add({ kind: 'item', width: markerOffset + padding, children: [], spread: false, blank: false });
    return true;
  }
}

/** Reads Markdown into an mdast tree of the constructs a handoff uses; never throws, linear in the input. */
export function readBlocks(text: string): Root {
  return new BlockReader().read(text);
}
