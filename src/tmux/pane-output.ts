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
import { offerChannel } from './channels.js';
import { socketFile } from './client.js';
import type { TmuxClient } from './client.js';
import { controlCommandLine } from './control-channel.js';
import type { ControlChannel } from './control-channel.js';
import { ControlCaptures } from './control-capture.js';
import { StreamedCaptures } from './pane-splice.js';
import { holdReading, releaseReading } from './read-hold.js';
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
  /**
   * Nothing needs hearing from the pane until the next capture (one is due): what it prints waits in
   * the client's pipe and is read with that capture's answer, in one wake (src/tmux/read-hold.ts).
   * The hold ends at the next capture asked, any command sent through the client (a poll's pane
   * list, every poll tick at the latest), or the follower's end. No timer of its own: node wakes
   * for a timer even once it is cleared, and a wake is what the hold saves.
   */
  hold?(): void;
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
  send: (commands: string) => void,
  timeoutMs: number,
): Promise<Asked> {
  // Stopped (its stdin closed) or ended: nothing more is asked of it.
  if (!running.stdin?.writable || running.exitCode !== null) return null;
  let before: ((width: number) => number | null) | null = null;
  const a = await captures.ask(splicer.paneId, depth, send, () => (before = splicer.printed.counted()), timeoutMs);
  return a && { answer: a, bound: before };
}

/** Commands run through a running client, while it takes them (src/tmux/control-channel.ts). */
function channelThrough(
  captures: ControlCaptures,
  running: ChildProcess,
  send: (commands: string) => void,
): ControlChannel {
  return {
    run(args, timeoutMs) {
      const line = controlCommandLine(args);
      if (line === null || !running.stdin?.writable || running.exitCode !== null) return Promise.resolve(null);
      return captures.command(line, send, timeoutMs);
    },
  };
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
  return new ControlFollower(tmux, paneId, onOutput, onEnd);
}

class ControlFollower implements PaneOutputFollower {
  private readonly splicer: StreamedCaptures;
  private readonly captures: ControlCaptures;
  private child: ChildProcess | null = null;
  private ended = false;
  private stopped = false;
  /** Whether the client has written anything: tmux has set it up, so a kill is safe. */
  private spoken = false;
  private killer: NodeJS.Timeout | null = null;
  private capturing = false;
  /** Whether the client's pipe is not read now (see PaneOutputFollower.hold). */
  private held = false;
  /** Resolves the client's turn on its server (takeTurn) once it has gone. */
  private gone!: () => void;
  /** Withdraws the client offered for running its server's commands (src/tmux/control-channel.ts). */
  private withdraw: (() => void) | null = null;

  constructor(
    private readonly tmux: TmuxClient,
    private readonly paneId: string,
    onOutput: () => void,
    private readonly onEnd: (why: string) => void,
  ) {
    const splicer = (this.splicer = new StreamedCaptures(paneId));
    this.captures = new ControlCaptures((line) => {
      if (splicer.heard(line)) onOutput();
    });
    const goneP = new Promise<void>((resolve) => (this.gone = resolve));
    const previous = takeTurn(tmux.argv([]).join('\0'), goneP);
    if (previous) void previous.then(() => this.launch());
    else this.launch();
  }

  splices(): number {
    return this.splicer.spliced;
  }

  capture(history: number): Promise<PaneCapture | null> {
    this.release();
    const running = this.child;
    // One capture at a time: each is spliced onto the one before (a command may wait its turn).
    if (this.ended || !running || this.capturing || !running.stdin?.writable) return Promise.resolve(null);
    this.capturing = true;
    const send = (commands: string) => this.write(commands);
    return this.splicer
      .capture(history, (depth) => ask(this.captures, this.splicer, depth, running, send, this.tmux.timeoutMs))
      .finally(() => (this.capturing = false));
  }

  hold(): void {
    const running = this.child;
    if (this.ended || this.held || !running || this.captures.busy) return;
    this.held = holdReading(running.stdout);
  }

  stop(): void {
    this.release();
    this.withdraw?.();
    this.ended = true;
    this.stopped = true;
    this.captures.cancelAll();
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.stdin?.end();
    this.arm(this.spoken ? LINGER_MS : SILENT_LINGER_MS);
  }

  private release(): void {
    if (!this.held) return;
    this.held = false;
    releaseReading(this.child?.stdout);
  }

  /** Writes a request's command lines, the pipe read again first (its answer comes through it). */
  private write(commands: string): void {
    this.release();
    this.child?.stdin?.write(commands);
  }

  private end(why: string): void {
    this.release();
    this.withdraw?.();
    if (this.ended) return;
    this.ended = true;
    this.captures.cancelAll();
    this.onEnd(why);
  }

  private arm(ms: number): void {
    if (this.killer) clearTimeout(this.killer);
    this.killer = setTimeout(() => this.child?.kill('SIGKILL'), ms);
    this.killer.unref();
  }

  private launch(): void {
    if (this.stopped) {
      this.gone();
      return;
    }
    let c: ChildProcess;
    try {
      c = controlClient(this.tmux, this.paneId);
    } catch (err) {
      this.gone();
      queueMicrotask(() => this.end(err instanceof Error ? err.message : String(err)));
      return;
    }
    this.child = c;
    c.stdout?.setEncoding('utf8');
    c.stdout?.on('data', (chunk: string) => {
      if (!this.spoken) this.spoke(c);
      this.captures.push(chunk);
    });
    c.stdin?.on('error', () => {});
    c.on('error', (err) => this.end(err.message));
    c.on('close', (code) => {
      this.withdraw?.();
      if (this.killer) clearTimeout(this.killer);
      this.gone();
      this.end(`the control client ended (${code ?? 'signal'})`);
    });
  }

  /** The client said its first words: tmux has set it up. */
  private spoke(c: ChildProcess): void {
    this.spoken = true;
    // Stopped before it spoke: the short bound starts now that a kill can no longer hurt tmux.
    if (this.stopped) this.arm(LINGER_MS);
    else {
      const channel = channelThrough(this.captures, c, (commands) => this.write(commands));
      this.withdraw = offerChannel(socketFile(this.tmux.socket), channel);
    }
  }
}
