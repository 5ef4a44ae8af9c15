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

/** A fresh marker nonce, as src/tmux/capture.ts makes one (128 random bits, hex). */
const freshNonce = (): string => randomHex(16);

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
  kind: 'capture';
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

/**
 * A command run through the client (src/tmux/control-channel.ts), framed as a capture is:
 *   display-message -p '<nonce>:b:' ; <command>
 *   display-message -p '<nonce>:e:'
 * Every line from the opening marker to the closing one is kept; the command's output is what lies
 * in the first block after the opening marker's own: from its `%begin` to the last line that ends
 * that block (`%end` or `%error` with the `%begin`'s own time, number and flags), so a line of
 * output that looks like that end is output. Notifications come only between blocks, and none is
 * `%begin`.
 */
interface CommandRequest {
  kind: 'command';
  opening: string;
  closing: string;
  opened: boolean;
  lines: string[];
  chars: number;
  resolve: (out: string | null) => void;
}

/** The most a command's answer may hold: past it the answer is refused (its command runs as a process). */
export const COMMAND_ANSWER_CHARS = 64 << 20;
/** Requests waiting for the one under way; one more is refused (null) at once. */
export const MAX_WAITING = 4;

/** The two command lines of one request (newline-terminated), for the control client's stdin. */
export function controlCaptureCommands(paneId: string, nonce: string, history: number): string {
  return (
    `display-message -p -t ${paneId} '${nonce}:b:#{history_size}:#{pane_height}:#{pane_width}:#{history_limit}:#{alternate_on}' ; ` +
    `capture-pane -p -e -t ${paneId} -S -${history}\n` +
    `display-message -p -t ${paneId} '${nonce}:e:#{pane_pid}:#{pane_current_command}'\n`
  );
}

/** How long a request may wait for its answer by default once sent (tmux's own call timeout). */
const ANSWER_MS = 3000;

/**
 * Reads a control client's stream line by line: requests' answers by the framing above, and every
 * other line handed to `onLine` (notifications such as `%output`). One request at a time: the next
 * is sent once the one before has its answer, or has none in time.
 */
export class ControlCaptures {
  private partial = '';
  private overlong = false;
  private current: Request | CommandRequest | null = null;
  /** Requests that wait for the one under way to end, each a start (false: refused, resolve null). */
  private waiting: Array<(go: boolean) => void> = [];

  constructor(private readonly onLine: (line: string) => void) {}

  /** Whether a request is waiting for its answer. */
  get busy(): boolean {
    return this.current !== null;
  }

  /**
   * Sends `commands` for `r` once the requests before it have ended (too many before it: null at
   * once); resolves with its answer, or null when none comes in `timeoutMs` from sending.
   */
  private inTurn<T>(
    make: (resolve: (v: T | null) => void) => Request | CommandRequest,
    commands: string,
    send: (commands: string) => void,
    timeoutMs: number,
  ): Promise<T | null> {
    const start = () =>
      new Promise<T | null>((resolve) => {
        let late: NodeJS.Timeout | undefined = undefined;
        const r = make((v) => {
          clearTimeout(late);
          resolve(v);
        });
        this.current = r;
        late = setTimeout(() => {
          if (this.current === r) this.cancel();
        }, timeoutMs);
        send(commands);
      });
    if (!this.current) return start();
    if (this.waiting.length >= MAX_WAITING) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push((go) => resolve(go ? start() : null)));
  }

  /** The request under way ended: the next one starts. */
  private next(): void {
    this.current = null;
    this.waiting.shift()?.(true);
  }

  /**
   * Runs one command line (already quoted) and resolves with its output, or null: it failed, its
   * answer was not whole, too long or late, the client ended.
   */
  command(commandLine: string, send: (commands: string) => void, timeoutMs = ANSWER_MS): Promise<string | null> {
    const nonce = freshNonce();
    return this.inTurn<string>(
      (resolve) => ({
        kind: 'command',
        opening: `${nonce}:b:`,
        closing: `${nonce}:e:`,
        opened: false,
        lines: [],
        chars: 0,
        resolve,
      }),
      `display-message -p '${nonce}:b:' ; ${commandLine}\ndisplay-message -p '${nonce}:e:'\n`,
      send,
      timeoutMs,
    );
  }

  /**
   * Starts a request; `send` writes the returned command lines. Resolves with the capture, or null
   * when tmux did not give one (the pane gone, a count that did not hold, the client ended).
   */
  async request(paneId: string, history: number, send: (commands: string) => void): Promise<PaneCapture | null> {
    const a = await this.ask(paneId, history, send);
    return a && { ok: true, text: a.lines.join('\n'), command: a.command, pid: a.pid };
  }

  /**
   * A request answered with its lines and what tmux said of the pane (`onOpening`: see Request), or
   * null as `request`'s, or when none came in `timeoutMs` (an old tmux failing the closing marker).
   */
  ask(
    paneId: string,
    history: number,
    send: (commands: string) => void,
    onOpening?: () => void,
    timeoutMs = ANSWER_MS,
  ): Promise<ControlAnswer | null> {
    const nonce = freshNonce();
    return this.inTurn<ControlAnswer>(
      (resolve) => ({
        kind: 'capture',
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
      }),
      controlCaptureCommands(paneId, nonce, history),
      send,
      timeoutMs,
    );
  }

  /** Ends the request under way without an answer (the answer is late); the next one starts. */
  cancel(): void {
    const r = this.current;
    if (!r) return;
    this.next();
    r.resolve(null);
  }

  /** Ends every request, under way or waiting, without an answer (the client ended). */
  cancelAll(): void {
    const r = this.current;
    this.current = null;
    for (const w of this.waiting.splice(0)) w(false);
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
    if (r.kind === 'command') {
      this.commandLine(r, line);
      return;
    }
    if (line !== null && line.startsWith(r.closing)) {
      this.next();
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

  /** One line while a command runs. */
  private commandLine(r: CommandRequest, line: string | null): void {
    // What the pane printed is told as it comes, a line of output that looks so too: a bound of
    // what it printed is only ever raised by it (src/tmux/scroll-bound.ts).
    if (line !== null && line.startsWith('%output ')) this.onLine(line);
    if (!r.opened) {
      if (line === r.opening) r.opened = true;
      else if (line !== null && !line.startsWith('%output ')) this.onLine(line);
      return;
    }
    if (line !== null && line.startsWith(r.closing)) {
      this.next();
      r.resolve(line === r.closing ? commandOutput(r.lines) : null);
      return;
    }
    r.chars += (line?.length ?? COMMAND_ANSWER_CHARS) + 1;
    // Too long: kept no further; the request ends at its closing marker, refused.
    if (r.chars > COMMAND_ANSWER_CHARS) r.lines = [];
    else r.lines.push(line as string);
  }
}

/**
 * A command's output from the lines between its markers (see CommandRequest): null unless they hold
 * the opening marker's block end, then the command's whole block ended by `%end`.
 */
export function commandOutput(lines: readonly string[]): string | null {
  // The opening marker's block end, the command's block, the closing marker's `%begin` last.
  if (lines.length < 4 || !lines[0]?.startsWith('%end ')) return null;
  const closingBegin = lines.length - 1;
  if (!lines[closingBegin]?.startsWith('%begin ')) return null;
  let begin = 1;
  while (begin < closingBegin && !lines[begin]?.startsWith('%begin ')) begin++;
  if (begin >= closingBegin) return null;
  const stamp = (lines[begin] as string).slice('%begin '.length);
  let end = closingBegin - 1;
  while (end > begin && lines[end] !== `%end ${stamp}` && lines[end] !== `%error ${stamp}`) end--;
  if (end === begin || lines[end] !== `%end ${stamp}`) return null;
  const out = lines.slice(begin + 1, end);
  return out.length ? `${out.join('\n')}\n` : '';
}
