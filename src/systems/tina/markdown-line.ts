/**
 * One line of Markdown as the block reader walks it: a position by character and by column, where a
 * tab reaches the next multiple of four and may be consumed in part (a list item's content column can
 * fall inside a tab).
 */
export class LineCursor {
  /** The line without its ending. */
  text = '';
  offset = 0;
  column = 0;
  /** Whether the tab at `offset` is partly consumed. */
  partialTab = false;
  /** The first non-space character at or after `offset`, its column, and the columns of indentation before it. */
  nextNonspace = 0;
  nextNonspaceColumn = 0;
  indent = 0;
  blank = false;

  reset(text: string): void {
    this.text = text;
    this.offset = 0;
    this.column = 0;
    this.partialTab = false;
  }

  findNextNonspace(): void {
    let i = this.offset;
    let cols = this.column;
    for (;;) {
      const c = this.text[i];
      if (c === ' ') cols++;
      else if (c === '\t') cols += 4 - (cols % 4);
      else break;
      i++;
    }
    this.blank = i >= this.text.length;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
  }

  /** The character at the next non-space position. */
  peekNonspace(): string {
    return this.text[this.nextNonspace] ?? '';
  }

  /** The text from the next non-space position on. */
  restNonspace(): string {
    return this.text.slice(this.nextNonspace);
  }

  advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  /** Moves `count` characters on, or `count` columns when `columns` (splitting a tab if needed). */
  advance(count: number, columns = false): void {
    let left = count;
    while (left > 0 && this.offset < this.text.length) {
      if (this.text[this.offset] === '\t') {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partialTab = toTab > left;
          const step = Math.min(left, toTab);
          this.column += step;
          if (!this.partialTab) this.offset++;
          left -= step;
        } else {
          this.partialTab = false;
          this.column += toTab;
          this.offset++;
          left--;
        }
      } else {
        this.partialTab = false;
        this.offset++;
        this.column++;
        left--;
      }
    }
  }

  /** The text from `offset` on, the rest of a partly consumed tab as spaces. */
  rest(): string {
    if (!this.partialTab) return this.text.slice(this.offset);
    return ' '.repeat(4 - (this.column % 4)) + this.text.slice(this.offset + 1);
  }
}
