/**
 * Hearing one pane print, as it prints: a tmux control-mode client (`tmux -C attach-session`) gets a
 * `%output %N …` notification for every write to a pane of the session it is attached to. Only that
 * these arrive for the followed pane is used (the screen is captured again, as any other capture:
 * the notifications' bytes are never drawn), so a line an agent prints reaches the preview in one
 * capture's time instead of a poll tick's (~1.7 s median on the 2 s tick). The capture itself is
 * asked of the same client (src/tmux/control-capture.ts): no process per capture; while the pane
 * prints plain lines, only its screen and the lines just above it (src/tmux/pane-splice.ts).
 *
 * The client is attached read-only and ignoring its size (`-r -f ignore-size`): it can type nothing
 * and never resizes the agent's window. pipe-pane would hear the pane too, but a pane has one pipe,
 * which an operator's own logging may hold; a control client takes nothing from anyone.
 * One child process per followed pane; what it writes is read line by line as it comes and never
 * kept past its line (a capture's lines until the capture ends), each line bounded.
 *
 * A control client is fragile while it is being identified: tmux (3.3a, and later releases too)
 * marks it a control client before it has set it up, and a notification sent to it then (another
 * client detaching, a session made or closed) or its process ending then (a signal, a kill) takes
 * the whole server down, every agent's pane with it. So a client here is never signalled before it
 * has said something (it is identified by then): it is stopped by closing its stdin, which tmux
 * reads only once it is set up; it starts in a process group of its own, out of reach of the
 * terminal's hang-up and interrupt; and a new one on a server starts only once the one before it
 * there has gone, so that its leaving is not news to the newcomer.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { PaneCapture } from './capture.js';
import type { TmuxClient } from './client.js';
import { ControlCaptures } from './control-capture.js';
import { StreamedCaptures } from './pane-splice.js';
import type { Asked } from './pane-splice.js';

export interface PaneOutputFollower {
  /** Ends the control client (its stdin closes, then a kill if it lingers). */
  stop(): void;
  /**
   * The pane captured through the control client (`history` lines of scrollback); null when it
   * cannot give one now (not running, a capture already asked, tmux gave none in time).
   */
  capture?(history: number): Promise<PaneCapture | null>;
  /** How many captures were made from the screen and the history already taken (src/tmux/pane-splice.ts). */
  splices?(): number;
}

/** How long a client that has spoken may linger after its stdin closed before it is killed. */
const LINGER_MS = 1000;
/**
 * How long one that has not spoken may: tmux has not set it up yet, and a kill then would end the
 * server; past this the server is not answering anyway.
 */
const SILENT_LINGER_MS = 30_000;
/** How long a new client waits for the one before it on the same server to go. */
const PREVIOUS_WAIT_MS = 2000;

/** The last control client started on each server (by its socket arguments): resolves once it has gone. */
const lastOnServer = new Map<string, Promise<void>>();

/**
 * Makes `gone` the last control client on `server`; what to wait for before starting it: the one
 * before it there going (bounded: one that does not go in time is hung, and waiting longer helps
 * nobody), or null when there is none.
 */
function takeTurn(server: string, gone: Promise<void>): Promise<void> | null {
  const previous = lastOnServer.get(server);
  lastOnServer.set(server, gone);
  void gone.then(() => {
    if (lastOnServer.get(server) === gone) lastOnServer.delete(server);
  });
  if (!previous) return null;
  const wait = new Promise<void>((resolve) => setTimeout(resolve, PREVIOUS_WAIT_MS).unref());
  return Promise.race([previous, wait]);
}

/**
 * Asks the control client for the pane with `depth` lines of scrollback; with the bound of what the
 * pane printed before it was taken (counted afresh from then on).
 */
async function ask(
  captures: ControlCaptures,
  splicer: StreamedCaptures,
  depth: number,
  running: ChildProcess,
  timeoutMs: number,
): Promise<Asked> {
  // Stopped (its stdin closed) or ended: nothing more is asked of it.
  if (!running.stdin?.writable || running.exitCode !== null) return null;
  let before: ((width: number) => number | null) | null = null;
  const answer = captures.ask(
    splicer.paneId,
    depth,
    (commands) => running.stdin?.write(commands),
    () => (before = splicer.printed.counted()),
  );
  // A capture tmux never closes (an old tmux failing the closing marker) gives way to a process.
  const late = setTimeout(() => captures.cancel(), timeoutMs);
  const a = await answer.finally(() => clearTimeout(late));
  return a && { answer: a, bound: before };
}

/** A read-only control client of `paneId`'s session that never resizes it, in a process group of its own. */
function controlClient(tmux: TmuxClient, paneId: string): ChildProcess {
  const argv = tmux.argv(['-C', 'attach-session', '-r', '-f', 'ignore-size', '-t', paneId]);
  return spawn('tmux', argv, { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
}

/**
 * Follows `paneId`'s output on the client's server: `onOutput` on each chunk that says the pane
 * wrote, `onEnd` once when the control client ends (the pane or its session gone, tmux gone).
 */
export function followPaneOutput(
  tmux: TmuxClient,
  paneId: string,
  onOutput: () => void,
  onEnd: (why: string) => void,
): PaneOutputFollower {
  const splicer = new StreamedCaptures(paneId);
  const captures = new ControlCaptures((line) => {
    if (splicer.heard(line)) onOutput();
  });
  let child: ChildProcess | null = null;
  let ended = false;
  let stopped = false;
  /** Whether the client has written anything: tmux has set it up, so a kill is safe. */
  let spoken = false;
  let killer: NodeJS.Timeout | null = null;
  let gone!: () => void;
  const goneP = new Promise<void>((resolve) => (gone = resolve));
  const previous = takeTurn(tmux.argv([]).join('\0'), goneP);
  const end = (why: string) => {
    if (ended) return;
    ended = true;
    captures.cancel();
    onEnd(why);
  };
  const arm = (ms: number) => {
    if (killer) clearTimeout(killer);
    killer = setTimeout(() => child?.kill('SIGKILL'), ms);
    killer.unref();
  };
  const launch = () => {
    if (stopped) {
      gone();
      return;
    }
    let c: ChildProcess;
    try {
      c = controlClient(tmux, paneId);
    } catch (err) {
      gone();
      queueMicrotask(() => end(err instanceof Error ? err.message : String(err)));
      return;
    }
    child = c;
    c.stdout?.setEncoding('utf8');
    c.stdout?.on('data', (chunk: string) => {
      if (!spoken) {
        spoken = true;
        // Stopped before it spoke: the short bound starts now that a kill can no longer hurt tmux.
        if (stopped) arm(LINGER_MS);
      }
      captures.push(chunk);
    });
    c.stdin?.on('error', () => {});
    c.on('error', (err) => end(err.message));
    c.on('close', (code) => {
      if (killer) clearTimeout(killer);
      gone();
      end(`the control client ended (${code ?? 'signal'})`);
    });
  };
  if (previous) void previous.then(launch);
  else launch();
  return {
    splices: () => splicer.spliced,
    capture(history: number): Promise<PaneCapture | null> {
      const running = child;
      if (ended || !running || captures.busy || !running.stdin?.writable) return Promise.resolve(null);
      return splicer.capture(history, (depth) => ask(captures, splicer, depth, running, tmux.timeoutMs));
    },
    stop() {
      ended = true;
      stopped = true;
      captures.cancel();
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      c.stdin?.end();
      arm(spoken ? LINGER_MS : SILENT_LINGER_MS);
    },
  };
}
