/**
 * A pane's capture asked of the control-mode client already attached to it (src/tmux/pane-output.ts):
 * the commands go down its stdin and the text comes back in its stream, so a capture costs no
 * process of its own (a `tmux capture-pane` process per capture was most of a printing pane's cost).
 *
 * The framing is one pane text cannot forge. Each request is two command lines:
 *   display-message -p -t %N '<nonce>:b:#{history_size}:#{pane_height}:…' ; capture-pane -p -e -t %N -S -H
 *   display-message -p -t %N '<nonce>:e:#{pane_pid}:#{pane_current_command}'
 * with a fresh 128-bit nonce that never appears on any screen. The first line runs as one command
 * queue, so the capture is exactly min(H, history) + height lines, and they are taken by count after
 * the capture's own `%begin`: a pane line that looks like `%end`, `%output` or a marker is text. The
 * request ends at the second marker, which always runs (a separate line), and the capture counts only
 * when its count was followed by tmux's `%end`. The pane's first process and its command name go in
 * that last marker (the pid tells an agent CLI started through a launcher, which tmux names `node`):
 * the name is the pane's process's to choose, and a line break in it can only add lines after the
 * request has ended.
 */
import { randomHex } from '../text/random.js';
import type { PaneCapture } from './capture.js';

/** Nonces taken from one read of the random source: a streamed pane is captured up to ten times a second. */
const NONCES_PER_READ = 32;
/** Nonces read and not yet used (never written anywhere before use). */
let spareNonces: string[] = [];

/** A fresh marker nonce, as src/tmux/capture.ts makes one (128 random bits, hex), from a read of 32. */
function pooledNonce(): string {
  if (spareNonces.length === 0) {
    const hex = randomHex(16 * NONCES_PER_READ);
    spareNonces = Array.from({ length: NONCES_PER_READ }, (_, i) => hex.slice(i * 32, i * 32 + 32));
  }
  return spareNonces.pop() as string;
}

/** The longest line taken from the control client: a longer one ends the request as failed. */
export const CONTROL_LINE_CHARS = 1 << 20;

type Phase = 'marker' | 'marker-end' | 'body-begin' | 'body' | 'body-end' | 'closing';

/** A capture's answer with what the opening marker said of the pane when it was taken. */
export interface ControlAnswer {
  /** The captured lines: `history` of them from the scrollback's end, then the screen's `height`. */
  lines: string[];
  history: number;
  /** The pane's scrollback: its lines, their limit; its size; whether it shows its alternate screen. */
  historySize: number;
  historyLimit: number;
  height: number;
  width: number;
  alternate: boolean;
  command: string;
  pid: number | null;
}

interface Request {
  /** The start of the closing marker's line, and the opening marker's whole line. */
  closing: string;
  opening: RegExp;
  history: number;
  /** Told when the opening marker is read: every notification before it came before the capture. */
  onOpening: (() => void) | undefined;
  marker: RegExpExecArray | null;
  phase: Phase;
  left: number;
  lines: string[];
  ok: boolean;
  resolve: (c: ControlAnswer | null) => void;
}

/** The two command lines of one request (newline-terminated), for the control client's stdin. */
export function controlCaptureCommands(paneId: string, nonce: string, history: number): string {
  return (
    `display-message -p -t ${paneId} '${nonce}:b:#{history_size}:#{pane_height}:#{pane_width}:#{history_limit}:#{alternate_on}' ; ` +
    `capture-pane -p -e -t ${paneId} -S -${history}\n` +
    `display-message -p -t ${paneId} '${nonce}:e:#{pane_pid}:#{pane_current_command}'\n`
  );
}

/**
 * Reads a control client's stream line by line: requests' answers by the framing above, and every
 * other line handed to `onLine` (notifications such as `%output`). One request at a time.
 */
export class ControlCaptures {
  private partial = '';
  private overlong = false;
  private current: Request | null = null;

  constructor(private readonly onLine: (line: string) => void) {}

  /** Whether a request is waiting for its answer. */
  get busy(): boolean {
    return this.current !== null;
  }

  /**
   * Starts a request; `send` writes the returned command lines. Resolves with the capture, or null
   * when tmux did not give one (the pane gone, a count that did not hold, the client ended).
   */
  async request(paneId: string, history: number, send: (commands: string) => void): Promise<PaneCapture | null> {
    const a = await this.ask(paneId, history, send);
    return a && { ok: true, text: a.lines.join('\n'), command: a.command, pid: a.pid };
  }

  /** A request answered with its lines and what tmux said of the pane (`onOpening`: see Request). */
  ask(
    paneId: string,
    history: number,
    send: (commands: string) => void,
    onOpening?: () => void,
  ): Promise<ControlAnswer | null> {
    if (this.current) return Promise.resolve(null);
    const nonce = pooledNonce();
    return new Promise((resolve) => {
      this.current = {
        closing: `${nonce}:e:`,
        opening: new RegExp(`^${nonce}:b:(\\d+):(\\d+):(\\d+):(\\d+):([01])$`),
        history,
        onOpening,
        marker: null,
        phase: 'marker',
        left: 0,
        lines: [],
        ok: false,
        resolve,
      };
      send(controlCaptureCommands(paneId, nonce, history));
    });
  }

  /** Ends the waiting request without a capture (the client ended or the answer is late). */
  cancel(): void {
    const r = this.current;
    this.current = null;
    r?.resolve(null);
  }

  /** Takes a chunk of the client's stdout (decoded text). */
  push(chunk: string): void {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      const line = this.partial + piece;
      const overlong = this.overlong || line.length > CONTROL_LINE_CHARS;
      this.partial = '';
      this.overlong = false;
      this.line(overlong ? null : line);
    }
    // The rest waits for its line's end; a line without end past the bound is dropped, not kept.
    if (this.overlong || this.partial.length + chunk.length - start > CONTROL_LINE_CHARS) {
      this.overlong = true;
      this.partial = '';
    } else this.partial += chunk.slice(start);
  }

  /** One whole line (null: one longer than the bound). */
  private line(line: string | null): void {
    const r = this.current;
    if (!r) {
      if (line !== null) this.onLine(line);
      return;
    }
    if (line !== null && line.startsWith(r.closing)) {
      this.current = null;
      const end = /^(\d+):/.exec(line.slice(r.closing.length));
      const pid = end ? Number(end[1]) : null;
      const command = line.slice(r.closing.length + (end ? end[0].length : 0));
      const m = r.marker;
      r.resolve(
        r.ok && m
          ? {
              lines: r.lines,
              history: Math.min(r.history, Number(m[1])),
              historySize: Number(m[1]),
              height: Number(m[2]),
              width: Number(m[3]),
              historyLimit: Number(m[4]),
              alternate: m[5] === '1',
              command,
              pid,
            }
          : null,
      );
      return;
    }
    switch (r.phase) {
      case 'marker': {
        const m = line === null ? null : r.opening.exec(line);
        if (m) {
          r.marker = m;
          r.left = Math.min(r.history, Number(m[1])) + Number(m[2]);
          r.phase = 'marker-end';
          r.onOpening?.();
        } else if (line !== null) this.onLine(line);
        return;
      }
      case 'marker-end':
        r.phase = line?.startsWith('%end ') ? 'body-begin' : 'closing';
        return;
      case 'body-begin':
        r.phase = line?.startsWith('%begin ') ? (r.left > 0 ? 'body' : 'body-end') : 'closing';
        return;
      case 'body':
        if (line === null) {
          r.phase = 'closing';
          return;
        }
        r.lines.push(line);
        if (--r.left === 0) r.phase = 'body-end';
        return;
      case 'body-end':
        r.ok = line?.startsWith('%end ') === true;
        r.phase = 'closing';
        return;
      case 'closing':
        // Between the capture and its closing marker: tmux's own block lines, or notifications.
        if (line !== null && !line.startsWith('%begin ') && !line.startsWith('%end ')) this.onLine(line);
        return;
    }
  }
}
