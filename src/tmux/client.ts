/**
 * The only code that runs tmux. Every call carries the socket flags and a timeout, and fails
 * with a typed TmuxError. Panes are targeted by pane id (`%3`), never by a name that could match twice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { channelOf } from './channels.js';
import { paneFormat, paneListMarkers, parsePaneList } from './pane-list.js';
import type { PaneInfo } from './pane-list.js';
import { TmuxError, classifyTmuxFailure } from './errors.js';
import { runTmuxProcess } from './process.js';

/** Which tmux server to talk to: `-L name`, `-S path`, or the default server. */
export interface TmuxSocket {
  name?: string | undefined;
  path?: string | undefined;
}

export type { PaneInfo } from './pane-list.js';

export const DEFAULT_TMUX_TIMEOUT_MS = 3000;
/** How long a command run through a control client may take before it is run as a process instead. */
const CHANNEL_TIMEOUT_MS = 1000;

/** Socket flags for a tmux command line. */
export function socketArgs(socket: TmuxSocket): string[] {
  if (socket.path) return ['-S', socket.path];
  if (socket.name) return ['-L', socket.name];
  return [];
}

/** Who runs a pane right now, as tmux says when asked about that one pane. */
export interface PaneOwner {
  paneId: string;
  /** The pane's first process. */
  pid: number;
  /** The tmux server's pid: a pane's first process is its child. */
  serverPid: number;
}

/** One client attached to the server (`list-clients`). */
export interface TmuxClientInfo {
  tty: string;
  /** The pane the client currently shows. */
  paneId: string;
  /** Last activity, epoch seconds. */
  activity: number;
}

/**
 * The socket file tmux itself would use for these flags (`-S` as given; `-L` and the default server
 * in `${TMUX_TMPDIR:-/tmp}/tmux-<uid>/`; tower runs tmux with TMUX unset, so never $TMUX's socket).
 */
export function socketFile(socket: TmuxSocket, env: NodeJS.ProcessEnv = process.env): string {
  if (socket.path) return path.resolve(socket.path);
  const base = env.TMUX_TMPDIR && env.TMUX_TMPDIR !== '' ? env.TMUX_TMPDIR : '/tmp';
  const uid = typeof process.getuid === 'function' ? process.getuid() : os.userInfo().uid;
  return path.join(base, `tmux-${uid}`, socket.name ?? 'default');
}

/**
 * With no socket file there is no server to list, and a file tmux said no server answers on (a
 * server that ended leaves it) stays so until a new server makes a new one: a poll then looks at
 * the file instead of running tmux (one tmux process a tick is ~0.7 % of a core on an idle box; a
 * stat is nothing), and a server that starts is seen at the next tick all the same. tmux is still
 * run this often, in case it keeps its socket somewhere this build does not know.
 */
export const NO_SOCKET_RECHECK_MS = 30_000;

/**
 * What the socket file says before a listing: ask tmux, skip it (no server), or ask it though the file says
 * no server.
 */
type SocketLook = { ask: 'yes' | 'skip' | 'anyway'; file: fs.Stats | undefined | null };

/** A tmux client bound to one server. */
export class TmuxClient {
  /** When tmux was last asked though the socket file said there was no server. */
  private askedAnywayAt = -Infinity;
  /** False once tmux answered while the socket file was missing: the file is not where it is looked for. */
  private trustSocketFile = true;
  /** The socket file tmux last said no server answers on (its inode and change time). */
  private deadSocket: { ino: number; ctimeMs: number } | null = null;

  constructor(
    readonly socket: TmuxSocket = {},
    readonly timeoutMs: number = DEFAULT_TMUX_TIMEOUT_MS,
  ) {}

  /** Looks at the socket file (null: it could not be looked at). */
  private socketLook(): SocketLook {
    if (!this.trustSocketFile) return { ask: 'yes', file: null };
    let file: fs.Stats | undefined;
    try {
      file = fs.statSync(socketFile(this.socket), { throwIfNoEntry: false });
    } catch {
      return { ask: 'yes', file: null };
    }
    const dead = this.deadSocket;
    if (file && !(dead && dead.ino === file.ino && dead.ctimeMs === file.ctimeMs)) return { ask: 'yes', file };
    const now = Date.now();
    if (now - this.askedAnywayAt < NO_SOCKET_RECHECK_MS) return { ask: 'skip', file };
    this.askedAnywayAt = now;
    return { ask: 'anyway', file };
  }

  /** The full argv (after `tmux`) of a command, socket flags first. */
  argv(args: readonly string[]): string[] {
    return [...socketArgs(this.socket), ...args];
  }

  /** Runs one tmux command and returns its stdout. */
  async run(args: readonly string[], opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string> {
    const argv = this.argv(args);
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const r = await runTmuxProcess(argv, timeoutMs, opts.signal);
    if (r.hung)
      throw new TmuxError('timeout', `tmux ${args[0] ?? ''} timed out after ${timeoutMs} ms (no answer)`, argv);
    if (r.error?.code === 'ENOENT')
      throw new TmuxError('not-installed', 'tmux is not installed (apt-get install tmux)', argv);
    if (r.timedOut) throw new TmuxError('timeout', `tmux ${args[0] ?? ''} timed out after ${timeoutMs} ms`, argv);
    if (r.canceled) throw new TmuxError('timeout', `tmux ${args[0] ?? ''} was cancelled`, argv);
    if (r.error) throw new TmuxError('failed', `tmux ${args[0] ?? ''}: ${r.error.message}`, argv);
    if (r.code !== 0) {
      const stderr = r.stderr.trim();
      throw new TmuxError(
        classifyTmuxFailure(stderr),
        `tmux ${args[0] ?? ''}: ${stderr || `exit ${r.code ?? r.signal ?? '?'}`}`,
        argv,
      );
    }
    return r.stdout;
  }

  /**
   * Every pane of the server in one call: through the control client attached to the server when
   * one is (no process of its own), else one tmux process.
   */
  async listPanes(opts: { signal?: AbortSignal } = {}): Promise<PaneInfo[]> {
    const markers = paneListMarkers();
    const args = ['list-panes', '-a', '-F', paneFormat(markers)];
    const channel = channelOf(socketFile(this.socket));
    const viaChannel = channel && !opts.signal?.aborted ? await channel.run(args, CHANNEL_TIMEOUT_MS) : null;
    return parsePaneList(viaChannel ?? (await this.run(args, opts)), markers);
  }

  /** Asks tmux about one pane (by id) now: its first process and the server's pid; null when the pane is gone. */
  async paneOwner(paneId: string): Promise<PaneOwner | null> {
    const m = paneListMarkers();
    let out: string;
    try {
      out = await this.run([
        'display-message',
        '-p',
        '-t',
        paneId,
        `${m.open}#{pane_id}${m.sep}#{pane_pid}${m.sep}#{pid}${m.close}`,
      ]);
    } catch (err) {
      if (err instanceof TmuxError && (err.kind === 'no-such-pane' || err.kind === 'no-server')) return null;
      throw err;
    }
    const start = out.indexOf(m.open);
    const end = out.indexOf(m.close);
    if (start < 0 || end < start) return null;
    const [id = '', pid = '', server = ''] = out.slice(start + m.open.length, end).split(m.sep);
    if (id !== paneId || !/^\d+$/.test(pid) || !/^\d+$/.test(server)) return null;
    return { paneId: id, pid: Number(pid), serverPid: Number(server) };
  }

  /** Every pane, or null when there is no server (not an error for a reader). */
  async listPanesOrNull(opts: { signal?: AbortSignal } = {}): Promise<PaneInfo[] | null> {
    const look = this.socketLook();
    if (look.ask === 'skip') return null;
    try {
      const panes = await this.listPanes(opts);
      this.deadSocket = null;
      // tmux answered though no file was there: its socket is elsewhere, so the file is not looked at again.
      if (
        look.ask === 'anyway' &&
        !look.file &&
        fs.statSync(socketFile(this.socket), { throwIfNoEntry: false }) === undefined
      )
        this.trustSocketFile = false;
      return panes;
    } catch (err) {
      if (err instanceof TmuxError && err.kind === 'no-server')
        this.deadSocket = look.file ? { ino: look.file.ino, ctimeMs: look.file.ctimeMs } : null;
      if (err instanceof TmuxError && (err.kind === 'no-server' || err.kind === 'not-installed')) return null;
      throw err;
    }
  }

  /** Types text literally into a pane (no key names interpreted). */
  async sendText(paneId: string, text: string): Promise<void> {
    await this.run(['send-keys', '-t', paneId, '-l', '--', literalArg(text)]);
  }

  /** Presses one named key (`Enter`, `Escape`, `C-c`) in a pane. */
  async sendKey(paneId: string, key: string): Promise<void> {
    await this.run(['send-keys', '-t', paneId, key]);
  }

  /** Types a line: the text literally, then Enter as a separate call (as tina does). */
  async sendLine(paneId: string, text: string): Promise<void> {
    await this.sendText(paneId, text);
    await this.sendKey(paneId, 'Enter');
  }

  /** The last `lines` lines of a pane's screen and scrollback, as plain text. */
  async capturePane(paneId: string, lines = 100, opts: { escapes?: boolean } = {}): Promise<string> {
    const args = ['capture-pane', '-p', '-t', paneId, '-S', `-${lines}`];
    if (opts.escapes) args.splice(2, 0, '-e');
    return this.run(args);
  }

  /** Kills one pane. */
  async killPane(paneId: string): Promise<void> {
    await this.run(['kill-pane', '-t', paneId]);
  }

  /** Whether a session exists. */
  async hasSession(session: string): Promise<boolean> {
    try {
      await this.run(['has-session', '-t', `=${session}`]);
      return true;
    } catch (err) {
      if (
        err instanceof TmuxError &&
        (err.kind === 'no-server' || err.kind === 'no-such-pane' || err.kind === 'failed')
      )
        return false;
      throw err;
    }
  }

  /** Expands a format for one target (`display-message -p -t TARGET FORMAT`), trimmed. */
  async displayMessage(target: string, format: string): Promise<string> {
    return (await this.run(['display-message', '-p', '-t', target, format])).trim();
  }

  /** The clients attached to the server: their tty and the pane each one shows. */
  async listClients(): Promise<TmuxClientInfo[]> {
    const out = await this.run(['list-clients', '-F', '#{client_tty}\t#{pane_id}\t#{client_activity}']);
    return out
      .split('\n')
      .filter((l) => l.includes('\t'))
      .map((l) => {
        const [tty, paneId, activity] = l.split('\t');
        return { tty: tty ?? '', paneId: paneId ?? '', activity: Number(activity) || 0 };
      });
  }

  /** Makes one client (by tty) show a pane, switching session and window as needed. */
  async switchClient(clientTty: string, target: string): Promise<void> {
    await this.run(['switch-client', '-c', clientTty, '-t', target]);
  }

  /**
   * Attaches this terminal to the session holding `target` and resolves with tmux's exit code when
   * the operator detaches. The terminal is handed over (stdio inherited); TMUX is emptied so an
   * attach from inside another tmux works. `hint` is said in tmux's status line on arrival.
   */
  async attachSession(target: string, hint?: string): Promise<number> {
    // execa is loaded here only: every other call runs tmux through runTmuxProcess, off the start path.
    const { execa } = await import('execa');
    // The hint shows in the status line of the client as it arrives (for five seconds).
    const say = hint ? [';', 'display-message', '-d', '5000', hint] : [];
    const r = await execa('tmux', this.argv(['attach-session', '-t', target, ...say]), {
      reject: false,
      stdio: 'inherit',
      env: { TMUX: '' },
      extendEnv: true,
    });
    const code = (r as { code?: string }).code;
    if (code === 'ENOENT')
      throw new TmuxError(
        'not-installed',
        'tmux is not installed (apt-get install tmux)',
        this.argv(['attach-session']),
      );
    return r.exitCode ?? 1;
  }

  /** Kills the whole server this client talks to. */
  async killServer(timeoutMs?: number): Promise<void> {
    try {
      await this.run(['kill-server'], timeoutMs === undefined ? {} : { timeoutMs });
    } catch (err) {
      if (err instanceof TmuxError && err.kind === 'no-server') return;
      throw err;
    }
  }
}

/**
 * `text` as one argument tmux passes on as it is. tmux reads an argument that ends in `;` as the end
 * of a command (the `;` dropped: `send-keys -l -- "run tests;"` typed `run tests`), and one ending in
 * `\;` as a literal `;`. So a final `;` is written `\;`, which keeps a backslash before it too: `a\;`
 * goes as `a\\;` and arrives `a\;`. Nothing else of an argument is read (tmux 3.3a: `{`, `}`, a `;`
 * inside, key names under -l all arrive as typed).
 */
export function literalArg(text: string): string {
  return text.endsWith(';') ? `${text.slice(0, -1)}\\;` : text;
}
