/**
 * The terminal's modes while the control room owns it: alternate screen, hidden cursor, no line
 * wrap. `restore` puts everything back and is safe to call any number of times, from any exit path.
 */

import { terminalGone } from './ending.js';

const ENTER = '\u001b[?1049h\u001b[?25l\u001b[?7l\u001b[H\u001b[2J';
const LEAVE = '\u001b[?2026l\u001b[0m\u001b[?7h\u001b[?25h\u001b[?1049l';

export class Terminal {
  private inside = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly input: NodeJS.ReadStream,
  ) {}

  /** Enters the alternate screen (cleared), hides the cursor, turns line wrap off. */
  enter(): void {
    if (this.inside) return;
    this.inside = true;
    this.write(ENTER);
  }

  /** Leaves the alternate screen and shows the cursor; raw mode off. Idempotent. */
  restore(): void {
    if (this.input.isTTY) {
      try {
        this.input.setRawMode(false);
      } catch {
        // stdin may already be closed (the ssh session went away): nothing left to restore there.
      }
    }
    if (!this.inside) return;
    this.inside = false;
    this.write(LEAVE);
  }

  private write(data: string): void {
    // A terminal that hung up takes no bytes: writing would only fail again (EIO).
    if (terminalGone()) return;
    try {
      this.out.write(data);
    } catch {
      // A terminal that is gone cannot be restored; the exit path goes on.
    }
  }
}
