/**
 * A streamed pane's capture made from its screen and the history already taken: the control client
 * asks tmux for the screen and a few lines of scrollback above it (a window), and the lines that
 * scrolled into the history since the last capture are spliced onto that capture's history. The
 * result is what a whole capture would give, or nothing (then the pane is captured whole):
 * - the pane kept its size and shows its main screen (a resize rewraps the history);
 * - how many lines scrolled in is known: from the history's size while tmux has not trimmed it (it
 *   drops a tenth at once at its limit), else bounded by what the pane printed (src/tmux/scroll-bound.ts)
 *   and told by where the window's history meets the last one's, at exactly one place;
 * - the window reaches a few lines above the lines scrolled in, and those are the last capture's own.
 * A capture's first line is written without the colours the line above it leaves on (tmux carries
 * them from line to line): the window's first line is read only to start the rest right, never kept.
 */
import type { PaneCapture } from './capture.js';
import type { ControlAnswer } from './control-capture.js';
import { ScrollBound } from './scroll-bound.js';

/**
 * The least scrollback a window asks for above the screen, and how many times the lines the pane
 * may have scrolled in since the last capture (a pane printing on while the request goes).
 */
const MIN_WINDOW = 16;
const WINDOW_TIMES = 2;
/** The fewest lines of the window that must meet the last history: one line alone (a blank) meets anywhere. */
const MIN_OVERLAP = 4;

/** An answer, and the bound of what the pane printed before it was taken (null: unknown). */
export type Asked = { answer: ControlAnswer; bound: ((width: number) => number | null) | null } | null;

/** A whole capture's lines: `history` of them from the scrollback, then the screen. */
export interface WholeCapture {
  answer: ControlAnswer;
  /** The scrollback lines asked for. */
  depth: number;
}

/**
 * The lines a whole capture of `depth` lines of scrollback gives now, and how many of them are
 * history, from the last whole one and a window (`windowAsked` lines of scrollback asked); `bound`:
 * the most lines scrolled in since the last one (null: unknown). Null when it cannot be told exactly.
 */
export function spliced(
  last: WholeCapture,
  w: ControlAnswer,
  windowAsked: number,
  depth: number,
  bound: number | null,
): { lines: string[]; history: number } | null {
  const k = last.answer;
  if (last.depth !== depth || windowAsked > depth) return null;
  if (w.alternate || k.alternate || w.width !== k.width || w.height !== k.height) return null;
  // The window holds the whole scrollback: it is the whole capture.
  if (w.historySize <= windowAsked) return { lines: w.lines, history: w.history };
  const fresh = w.lines.slice(1, w.history);
  const screen = w.lines.slice(w.history);
  const kept = k.lines.slice(0, k.history);
  const untrimmed = w.historyLimit - Math.floor(w.historyLimit / 10);
  let candidates: number[];
  if (w.historySize >= k.historySize && w.historySize < untrimmed) candidates = [w.historySize - k.historySize];
  else if (bound !== null) candidates = Array.from({ length: Math.min(bound, fresh.length - 1) + 1 }, (_, s) => s);
  else return null;
  let found: number | null = null;
  for (const s of candidates) {
    const n = fresh.length - s;
    if (n < MIN_OVERLAP || n > kept.length) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = fresh[i] === kept[kept.length - n + i];
    if (!same) continue;
    // Two places fit (a history that repeats itself): which is true cannot be told.
    if (found !== null) return null;
    found = s;
  }
  if (found === null) return null;
  const want = Math.min(depth, w.historySize);
  const history = kept.concat(fresh.slice(fresh.length - found)).slice(-want);
  if (history.length !== want) return null;
  return { lines: history.concat(screen), history: history.length };
}

/** One followed pane's captures: a window spliced on where it can be, else the pane whole. */
export class StreamedCaptures {
  /** What the pane printed since the last capture began: how far it can have scrolled. */
  readonly printed = new ScrollBound();
  private readonly marker: string;
  /** The captures made from a window. */
  spliced = 0;
  /** The last capture, whole: what a window's lines are spliced onto. */
  private whole: WholeCapture | null = null;

  constructor(readonly paneId: string) {
    this.marker = `%output ${paneId} `;
  }

  /** Whether a line of the control client says the pane printed (what it printed is counted). */
  heard(line: string): boolean {
    if (!line.startsWith(this.marker)) return false;
    this.printed.take(line.slice(this.marker.length));
    return true;
  }

  /** The pane with `history` lines of scrollback; `ask` asks tmux for `depth` of them. */
  async capture(history: number, ask: (depth: number) => Promise<Asked>): Promise<PaneCapture | null> {
    const last = this.whole?.depth === history ? this.whole : null;
    const soFar = last ? this.printed.bound(last.answer.width) : null;
    const window = soFar === null ? history : Math.max(MIN_WINDOW, WINDOW_TIMES * (soFar + 2));
    if (last && window < history) {
      const got = await ask(window);
      if (!got) {
        this.whole = null;
        return null;
      }
      const made = spliced(last, got.answer, window, history, got.bound?.(last.answer.width) ?? null);
      if (made) {
        this.spliced++;
        this.whole = { answer: { ...got.answer, lines: made.lines, history: made.history }, depth: history };
        return paneCapture(got.answer, made.lines);
      }
      // Not told exactly: the pane is captured whole.
    }
    const got = await ask(history);
    this.whole = got ? { answer: got.answer, depth: history } : null;
    return got && paneCapture(got.answer, got.answer.lines);
  }
}

/** A capture as the pane's readers take it. */
function paneCapture(a: ControlAnswer, lines: readonly string[]): PaneCapture {
  return { ok: true, text: lines.join('\n'), command: a.command, pid: a.pid };
}
