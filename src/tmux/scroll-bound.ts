/**
 * How many lines a pane can have scrolled into its history, read from what it printed (the control
 * client's `%output` notifications): an upper bound, or none when the output did something this
 * reading does not follow. Only a line feed (LF, VT, FF) or a line that wraps moves a line into the
 * history when the output is plain text, colour escapes (SGR), carriage returns, backspaces, tabs and
 * bells. Anything else (a cursor move, a clear, a scroll, another escape or control character) may
 * scroll any number of lines: the bound is then unknown until the next capture.
 *
 * tmux writes the pane's bytes below a space, and the backslash, as `\ooo` (three octal digits);
 * every other character is the pane's own. An escape sequence may be split across notifications:
 * where it stands is kept from one to the next.
 */

/** The longest SGR parameter list followed; a longer one makes the bound unknown. */
const MAX_SGR_PARAMS = 64;

interface Counts {
  feeds: number;
  tabs: number;
  cells: number;
  unknown: boolean;
}

function boundOf(c: Counts, width: number): number | null {
  if (c.unknown || width < 3) return null;
  // A wrap needs the cursor brought from the line's start to its end by printing (width - 1 cells at
  // least; the first may need one, the cursor being anywhere); a tab may bring it at most that far.
  return c.feeds + c.tabs + 1 + Math.ceil(c.cells / (width - 1));
}

export class ScrollBound implements Counts {
  feeds = 0;
  tabs = 0;
  /** Characters that take a cell or two on screen: counted as two each (wide ones take two). */
  cells = 0;
  unknown = false;
  private state: 'ground' | 'escape' | 'csi' = 'ground';
  private params = 0;
  /** Whether the control sequence under way can still be an SGR. */
  private sgr = true;

  /** Reads one notification's data (the text after `%output %N `). */
  take(data: string): void {
    for (let i = 0; i < data.length; i++) {
      let c = data.charCodeAt(i);
      if (c === 0x5c) {
        const digits = data.slice(i + 1, i + 4);
        if (/^[0-7]{3}$/.test(digits)) {
          c = parseInt(digits, 8);
          i += 3;
        } else this.unknown = true;
      }
      // Read on even once unknown: where an escape sequence stands must hold for the next capture's count.
      this.byte(c);
    }
  }

  /** The most lines scrolled into history by what was read, on a pane `width` cells wide; null: unknown. */
  bound(width: number): number | null {
    return boundOf(this, width);
  }

  /**
   * The bound of what was read so far (as `bound`), and counting starts again: a capture was taken.
   * An escape sequence under way is still followed.
   */
  counted(): (width: number) => number | null {
    const was = { feeds: this.feeds, tabs: this.tabs, cells: this.cells, unknown: this.unknown };
    this.feeds = this.tabs = this.cells = 0;
    this.unknown = false;
    return (width) => (was.unknown || width < 3 ? null : was.feeds + was.tabs + 1 + Math.ceil(was.cells / (width - 1)));
  }

  private byte(c: number): void {
    if (this.state === 'escape') {
      // ESC [ starts a control sequence; any other (a scroll, a reset, a string) is not followed.
      if (c === 0x5b) {
        this.state = 'csi';
        this.params = 0;
        this.sgr = true;
        return;
      }
      this.unknown = true;
      this.state = 'ground';
      if (c === 0x1b) this.state = 'escape';
      return;
    }
    if (this.state === 'csi') {
      if (c >= 0x20 && c <= 0x3f) {
        // Parameters and intermediates: an SGR has digits, `;` and `:` only, and not too many.
        if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a) || ++this.params > MAX_SGR_PARAMS) this.sgr = false;
        return;
      }
      this.state = 'ground';
      if (c !== 0x6d || !this.sgr) this.unknown = true;
      // A control character inside a sequence is acted on by the terminal: read as one (below).
      if (c >= 0x40 && c <= 0x7e) return;
    }
    if (c === 0x1b) this.state = 'escape';
    else if (c === 0x0a || c === 0x0b || c === 0x0c) this.feeds++;
    else if (c === 0x09) this.tabs++;
    else if (c === 0x0d || c === 0x08 || c === 0x07) return;
    else if (c < 0x20) this.unknown = true;
    else this.cells += 2;
  }
}
