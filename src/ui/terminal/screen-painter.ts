/**
 * Paints the screen's frames onto the real terminal (each frame is the whole screen as rows of
 * styled text, see ui/screen.tsx); the painter rewrites only the lines that changed, each at an
 * absolute position, inside a synchronized update, and at most once per display frame. A full-screen
 * app drawn this way never scrolls, tears or flickers, and a resize or a return from `tmux attach`
 * is a clean full repaint.
 */
import stringWidth from 'string-width';

const SYNC_START = '\u001b[?2026h';
const SYNC_END = '\u001b[?2026l';
const RESET = '\u001b[0m';
const ERASE_RIGHT = '\u001b[K';
const ERASE_LINE = '\u001b[2K';
const SGR = /\u001b\[[0-9;]*m/g;

/** How long painting waits after a resize for the app to lay itself out again. */
export const RESIZE_SETTLE_MS = 40;

const at = (row: number) => `\u001b[${row + 1};1H`;

/**
 * The bytes that turn `prev` (null: unknown screen) into `next`, for a terminal of `columns` × `rows`.
 * Lines are written at absolute positions; nothing is written past the last row.
 */
export function paintDiff(
  prev: readonly string[] | null,
  next: readonly string[],
  columns: number,
  rows: number,
): string {
  let out = '';
  const height = Math.min(rows, Math.max(next.length, prev?.length ?? rows));
  for (let i = 0; i < height; i++) {
    const line = next[i];
    if (prev && prev[i] === line) continue;
    if (line === undefined) {
      out += at(i) + ERASE_LINE;
      continue;
    }
    // Erasing the rest of a line that already fills the width would erase its last cell.
    const full = stringWidth(line.replace(SGR, '')) >= columns;
    out += at(i) + line + RESET + (full ? '' : ERASE_RIGHT);
  }
  return out === '' ? '' : SYNC_START + out + SYNC_END;
}

/** Where the painter writes and how big the terminal is. */
export interface PaintTarget {
  write(data: string): unknown;
  readonly columns: number;
  readonly rows: number;
}

export class ScreenPainter {
  private shown: string[] | null = null;
  /** The newest frame painted, redrawn in full after a resize or a resume. */
  private lastFrame: string | null = null;
  private pending: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastPaint = 0;
  private suspended = false;
  private stopped = false;

  /** `frameMs`: the least time between two paints (one display frame). */
  constructor(
    private readonly target: PaintTarget,
    private readonly frameMs = 16,
  ) {}

  /** A new frame from ink: painted now, or at the next frame boundary with whatever is newest then. */
  frame(text: string): void {
    if (this.stopped || text === '') return;
    this.pending = text;
    if (this.suspended || this.timer) return;
    const wait = this.lastPaint + this.frameMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /**
   * The terminal was resized: forget what is on screen and hold painting for a moment. ink first
   * renders the old layout at the new width; the app's own re-layout follows a tick later, and
   * only that frame should reach the screen.
   */
  resized(): void {
    this.shown = null;
    if (this.pending === null && this.lastFrame !== null) this.pending = this.lastFrame;
    if (this.suspended || this.stopped) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.flush(), RESIZE_SETTLE_MS);
  }

  /** Forgets what is on screen: the next paint redraws every line. */
  repaint(): void {
    this.shown = null;
    if (this.pending === null && this.lastFrame !== null) this.pending = this.lastFrame;
    if (!this.suspended && !this.timer) this.flush();
  }

  /** Stops painting (the terminal belongs to another program for a while). */
  suspend(): void {
    this.suspended = true;
    this.clearTimer();
  }

  /** Paints the newest frame in full on a fresh screen. */
  resume(): void {
    this.suspended = false;
    this.repaint();
  }

  /** Paints what is pending now. */
  flush(): void {
    this.clearTimer();
    if (this.stopped || this.suspended || this.pending === null) return;
    const text = this.pending;
    this.pending = null;
    const next = text.split('\n');
    const bytes = paintDiff(this.shown, next, this.target.columns || 80, this.target.rows || 24);
    if (bytes !== '') this.target.write(bytes);
    this.shown = next;
    this.lastFrame = text;
    this.lastPaint = Date.now();
  }

  /** Paints what is pending and stops for good. */
  stop(): void {
    this.flush();
    this.stopped = true;
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
