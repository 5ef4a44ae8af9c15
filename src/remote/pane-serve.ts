/**
 * The serving side of a remote preview: the one pane the other side previews is streamed here as it
 * is on the control room's own box (captured each time it prints, src/store/preview-stream.ts), and
 * each new capture goes over the link as the lines that changed since the last one sent, cleaned to
 * text and colour escapes, within PREVIEW_BYTES_PER_SEC (what would pass it waits for the next
 * second; a single capture larger than that is sent as its newest lines that fit).
 */
import { paneKey } from '../store/pane-keys.js';
import type { LocalPaneLooks } from '../store/preview-stream.js';
import { sgrOnlyLine } from '../text/sgr-only.js';
import type { PaneLines } from './protocol.js';
import { MAX_PANE_LINE_CHARS, MAX_PANE_LINES, PREVIEW_BYTES_PER_SEC } from './protocol.js';

const PANE_ID = /^%\d{1,9}$/;
const SERVER = /^[A-Za-z0-9_.-]{1,100}$/;

/**
 * A capture's text as the lines sent: the newest MAX_PANE_LINES, each cleaned and bounded. With
 * `cleaned` (the last capture's lines, raw → sent), a line met before is not cleaned again: a line
 * with colours takes ~3 µs to clean on a 2-core box, ~0.6 ms a capture of 220 lines, most of them
 * the last capture's own (test/bench/serve-preview.bench.ts runs the serve this is for). The map is
 * made anew each time, so it holds one capture's lines at most.
 */
export function paneLines(text: string, cleaned?: { last: Map<string, string> }): string[] {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  const last = cleaned?.last;
  const next = new Map<string, string>();
  const out = all.slice(-MAX_PANE_LINES).map((raw) => {
    const clean = last?.get(raw) ?? sgrOnlyLine(raw.slice(0, MAX_PANE_LINE_CHARS));
    next.set(raw, clean);
    return clean;
  });
  if (cleaned) cleaned.last = next;
  return out;
}

/**
 * How `next` follows from `prev`: the old lines from `drop` on, `keep` of them, then new ones. The
 * longest run of old lines that starts `next` wins (a pane that scrolled drops its top lines).
 */
export function overlap(prev: readonly string[], next: readonly string[]): { drop: number; keep: number } {
  let best = { drop: 0, keep: 0 };
  if (next.length === 0) return best;
  for (let d = prev.indexOf(next[0] as string); d >= 0; d = prev.indexOf(next[0] as string, d + 1)) {
    let k = 1;
    while (k < next.length && d + k < prev.length && prev[d + k] === next[k]) k++;
    if (k > best.keep) best = { drop: d, keep: k };
    if (d + k === prev.length) break;
  }
  return best;
}

export class PaneServer {
  private target: { pane: string; server: string | null } | null = null;
  private sent: string[] = [];
  private sentText: string | null = null;
  /** The last capture's lines as cleaned (see paneLines). */
  private readonly cleaned = { last: new Map<string, string>() };
  private windowStart = -Infinity;
  private windowBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly off: () => void;

  constructor(
    private readonly looks: LocalPaneLooks,
    private readonly send: (msg: PaneLines) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.off = looks.subscribe(() => this.changed());
  }

  /** The other side previews this pane now (null: none); why not, when it cannot be. */
  request(pane: unknown, server: unknown, run?: unknown): string | null {
    if (pane === null || pane === undefined) {
      this.stop();
      return null;
    }
    const srv = server === undefined ? null : server;
    if (typeof pane !== 'string' || !PANE_ID.test(pane)) return 'a preview names a pane id like %3';
    if (srv !== null && (typeof srv !== 'string' || !SERVER.test(srv))) return 'a preview names a tmux server by name';
    if (this.target?.pane === pane && this.target.server === srv) {
      // Asked again (this side missed lines, or another run): the pane is sent whole.
      if (typeof run === 'string' && run.length <= 4096) this.looks.focus(run);
      this.sent = [];
      this.sentText = null;
      this.changed();
      return null;
    }
    this.stop();
    this.target = { pane, server: srv };
    // The run previewed there is this box's selected one: its panes captured every tick.
    if (typeof run === 'string' && run.length <= 4096) this.looks.focus(run);
    this.looks.stream.follow(paneKey(pane, srv));
    this.changed();
    return null;
  }

  stop(): void {
    this.target = null;
    this.sent = [];
    this.sentText = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.looks.stream.follow(null);
    this.looks.focus(null);
  }

  dispose(): void {
    this.stop();
    this.off();
  }

  private changed(): void {
    const t = this.target;
    if (!t || this.timer) return;
    const look = this.looks.watch.look(t.pane, t.server);
    if (!look || look.text === this.sentText) return;
    const lines = paneLines(look.text, this.cleaned);
    const { drop, keep } = overlap(this.sent, lines);
    let msg: PaneLines = { type: 'pane', pane: t.pane, server: t.server, drop, keep, lines: lines.slice(keep) };
    let bytes = JSON.stringify(msg).length;
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowBytes = 0;
    }
    let kept = lines;
    if (this.windowBytes + bytes > PREVIEW_BYTES_PER_SEC) {
      if (this.windowBytes > 0) {
        // The rest of this second's bytes are spent: the newest capture goes at the next second.
        this.timer = setTimeout(
          () => {
            this.timer = null;
            this.changed();
          },
          Math.max(1, this.windowStart + 1000 - now),
        );
        return;
      }
      // One capture larger than a second's bytes: its newest lines that fit, all sent as new.
      kept = newestThatFit(lines, PREVIEW_BYTES_PER_SEC - 200);
      msg = { type: 'pane', pane: t.pane, server: t.server, drop: 0, keep: 0, lines: kept };
      msg.trimmed = lines.length - kept.length;
      bytes = JSON.stringify(msg).length;
    }
    this.windowBytes += bytes;
    this.sent = kept;
    this.sentText = look.text;
    this.send(msg);
  }
}

/** The last lines of `lines` whose JSON fits in `budget` characters. */
function newestThatFit(lines: readonly string[], budget: number): string[] {
  let used = 0;
  let from = lines.length;
  while (from > 0) {
    const cost = JSON.stringify(lines[from - 1]).length + 1;
    if (used + cost > budget) break;
    used += cost;
    from--;
  }
  return lines.slice(from);
}
