/**
 * This side of a remote preview, one per host link: asks the box for the one pane previewed here
 * (and for none when the preview moves away), puts its lines together from what the box sends, and
 * holds the box to PREVIEW_BYTES_PER_SEC: what comes past it in a second is cut (not even parsed),
 * said once, and the pane asked for again whole once the second is over.
 */
import type { PaneLines } from './protocol.js';
import { MAX_PANE_LINES, PREVIEW_BYTES_PER_SEC } from './protocol.js';

/** The pane as this side has it now. */
export interface PaneView {
  pane: string;
  server: string | null;
  lines: readonly string[];
  /** The lines joined, as a capture's text (what the preview draws). */
  text: string;
  /** Lines the box left out to stay within its bytes per second. */
  trimmed: number;
}

export interface PaneFeedDeps {
  /** Writes a request to the box; false when it could not be written. */
  write(msg: { type: 'preview'; pane: string | null; server?: string | null; run?: string }): boolean;
  /** Notes what was wrong with what the box sent. */
  problem(text: string): void;
  /** Called when the pane's lines changed (or went). */
  changed(): void;
  now?: () => number;
}

export class PaneFeed {
  private wanted: { pane: string; server: string | null; run: string | null } | null = null;
  /** Whether the box was asked for `wanted` on this connection. */
  private asked = false;
  view: PaneView | null = null;
  private windowStart = -Infinity;
  private windowBytes = 0;
  /** The box sent past the cap: its pane messages are dropped until this time, then it is asked again. */
  private cutUntil = -Infinity;
  private resyncTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly d: PaneFeedDeps) {
    this.now = d.now ?? (() => performance.now());
  }

  /** Previews this pane of the box (null: none). Asked now when the box can stream, else at its hello. */
  want(pane: string | null, server: string | null, canAsk: boolean, run: string | null = null): void {
    const same = pane === this.wanted?.pane && server === this.wanted?.server && run === this.wanted.run;
    if (same || (pane === null && this.wanted === null)) return;
    const had = this.wanted !== null && this.asked;
    this.wanted = pane === null ? null : { pane, server, run };
    this.clear();
    this.asked = false;
    if (!canAsk) return;
    if (this.wanted) this.ask();
    else if (had) this.d.write({ type: 'preview', pane: null });
  }

  /** The box said hello and streams panes: asks it for the pane still previewed here. */
  connected(canAsk: boolean): void {
    this.asked = false;
    if (canAsk && this.wanted) this.ask();
  }

  /** The link dropped: what the box sent is gone with it (asked again at the next hello). */
  dropped(): void {
    this.asked = false;
    this.clear();
  }

  /** Whether a line from the box is to be dropped unread: a pane message while the box is cut. */
  cuts(line: string): boolean {
    // What this tower's serve writes begins so; a box that orders its keys otherwise is parsed, and cut all the same.
    return this.now() < this.cutUntil && line.startsWith('{"type":"pane"');
  }

  /** A pane message through the door, `bytes` long on the wire. */
  received(msg: PaneLines, bytes: number): void {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowBytes = 0;
    }
    this.windowBytes += bytes;
    if (this.windowBytes > PREVIEW_BYTES_PER_SEC) {
      this.cutUntil = this.windowStart + 1000;
      this.d.problem(
        `sent more of a pane than ${Math.round(PREVIEW_BYTES_PER_SEC / 1024)} KB a second; it was cut to that`,
      );
      this.resyncAt(this.cutUntil - now);
      return;
    }
    const w = this.wanted;
    if (!w || msg.pane !== w.pane || msg.server !== w.server) return;
    const before = this.view?.pane === msg.pane && this.view.server === msg.server ? this.view.lines : [];
    const kept = before.slice(msg.drop, msg.drop + msg.keep);
    if (kept.length !== msg.keep) {
      // Lines this side does not have (one was cut): the pane is asked for again, whole.
      this.resyncAt(0);
      return;
    }
    const lines = kept.concat(msg.lines).slice(-MAX_PANE_LINES);
    this.view = { pane: msg.pane, server: msg.server, lines, text: lines.join('\n'), trimmed: msg.trimmed ?? 0 };
    this.d.changed();
  }

  dispose(): void {
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
  }

  private ask(): void {
    const w = this.wanted;
    if (!w) return;
    this.asked = this.d.write({
      type: 'preview',
      pane: w.pane,
      server: w.server,
      ...(w.run === null ? {} : { run: w.run }),
    });
  }

  /** Asks for the pane again, whole, after `ms` (once, however often it is called meanwhile). */
  private resyncAt(ms: number): void {
    if (this.resyncTimer) return;
    this.resyncTimer = setTimeout(
      () => {
        this.resyncTimer = null;
        this.view = null;
        if (this.asked) this.ask();
      },
      Math.max(0, ms),
    );
    this.resyncTimer.unref?.();
  }

  private clear(): void {
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
    if (this.view === null) return;
    this.view = null;
    this.d.changed();
  }
}
