/**
 * Following one opencode server: its `GET /event` stream read as it comes, its lists (the requests
 * waiting, the busy sessions, the models' windows) read again on each connect, since events missed
 * while away are not sent again. The stream is reconnected with a growing pause (0.5 s doubling to
 * 30 s) while the server is away; nothing is kept of it but the bounded state (state.ts). A server
 * that asks for a password (`OPENCODE_SERVER_PASSWORD`) is sent the one the operator gave tower
 * (password.ts), read again on each connect; with none it is not followed and says so.
 */
import type { ServerFollow, ServerReading } from '../types.js';
import {
  EventParser,
  authHeader,
  modelWindows,
  pendingPermissions,
  pendingQuestions,
  sessionStatuses,
} from './server.js';
import type { ServerOptions } from './server.js';
import { OpencodeState } from './state.js';
import { passwordFile, readPassword, type PasswordRead } from './password.js';
import { questionOf, requestOf } from './requests.js';

const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 30_000;
/** How long connecting to the stream may take (the stream itself stays open). */
const CONNECT_MS = 5000;
/** How many failed connects in a row make a problem row (one is a server still starting). */
const LASTING_FAILURES = 3;

/** A connect that failed, with whether it needs the operator (a password) rather than time. */
class Refused extends Error {}

/** Follows the server on 127.0.0.1:`port` until closed. */
export class OpencodeFollow implements ServerFollow {
  private state = new OpencodeState();
  private connected = false;
  private closed = false;
  private why: string | null = null;
  /** Whether `why` is one a wait will not mend (a password asked for or refused). */
  private lasting = false;
  private failures = 0;
  private windows = new Map<string, number>();
  private abort: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pause = FIRST_PAUSE_MS;
  private last: { key: string; since: number } | null = null;
  private tried!: () => void;
  private readonly first = new Promise<void>((resolve) => (this.tried = resolve));

  constructor(
    readonly port: number,
    private readonly onChange: () => void,
    private readonly opts: ServerOptions = {},
    private readonly now: () => number = Date.now,
    private readonly passwords: () => PasswordRead = readPassword,
  ) {
    void this.connect();
  }

  read(): ServerReading | null {
    if (!this.connected) return null;
    const a = this.state.activity();
    if (!a) return null;
    // A permission first, then a question of its question tool: the oldest of each.
    const permission = this.state.pending()[0] ?? null;
    const question = permission ? null : (this.state.pendingQuestions()[0] ?? null);
    const asked = permission ? requestOf(this.port, permission) : question ? questionOf(this.port, question) : null;
    // The time the reading last changed (what it is, or the request asked) is its "since".
    const key = `${a.activity}:${a.cue}:${permission?.id ?? question?.id ?? ''}`;
    if (this.last?.key !== key) this.last = { key, since: this.now() };
    return {
      activity: a.activity,
      cue: a.cue,
      since: this.last.since,
      prompt: asked?.prompt ?? null,
      request: asked?.request ?? null,
      usage: this.state.usage((model) => (model === null ? null : (this.windows.get(model) ?? null))),
    };
  }

  /** Why it is not followed, once that lasts: a password asked for, or the server away a while. */
  problem(): string | null {
    return this.lasting || this.failures >= LASTING_FAILURES ? this.why : null;
  }

  ready(): Promise<void> {
    return this.first;
  }

  close(): void {
    this.closed = true;
    this.tried();
    this.abort?.abort();
    if (this.timer) clearTimeout(this.timer);
  }

  private changed(): void {
    if (!this.closed) this.onChange();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const abort = (this.abort = new AbortController());
    const given = this.passwords();
    const opts: ServerOptions = { ...this.opts, ...(given.password ? { password: given.password } : {}) };
    try {
      // Connecting is bounded; the stream, once open, is not (it is read as it comes).
      const slow = setTimeout(() => abort.abort(new Error('it did not answer GET /event in time')), CONNECT_MS);
      const res = await fetch(`http://127.0.0.1:${this.port}/event`, {
        headers: authHeader(opts),
        signal: abort.signal,
      }).finally(() => clearTimeout(slow));
      if (res.status === 401) {
        await res.body?.cancel();
        throw new Refused(
          given.password
            ? 'it refused the password tower was given: its screen is read instead'
            : 'problem' in given && given.problem !== null
              ? `it asks for a password and ${given.problem}: its screen is read instead`
              : `it asks for a password (OPENCODE_SERVER_PASSWORD): its screen is read instead; give tower the password in ${passwordFile()} (mode 600)`,
        );
      }
      if (!res.ok || !res.body) throw new Error(`it said ${res.status} to GET /event`);
      // The stream is open: what was missed before it is read from the lists.
      await this.readLists(opts);
      this.connected = true;
      const hadProblem = this.problem() !== null;
      this.why = null;
      this.lasting = false;
      this.failures = 0;
      if (hadProblem) this.changed();
      this.pause = FIRST_PAUSE_MS;
      this.changed();
      // The models' windows (a long list) do not hold the state back; the first try is done with them.
      void this.readWindows(opts).finally(() => this.tried());
      const parser = new EventParser();
      const text = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (this.closed) break;
        const events = parser.push(text.decode(chunk, { stream: true }));
        for (const e of events) this.state.apply(e);
        if (events.length > 0) this.changed();
      }
      throw new Error('its event stream ended');
    } catch (err) {
      this.tried();
      if (this.closed) return;
      const was = this.connected;
      const before = this.problem();
      this.connected = false;
      this.why = `opencode's server on port ${this.port}: ${(err as Error).message.slice(0, 300)}`;
      this.lasting = err instanceof Refused;
      this.failures++;
      if (was || this.problem() !== before) this.changed();
      this.timer = setTimeout(() => void this.connect(), this.pause);
      this.timer.unref();
      this.pause = Math.min(this.pause * 2, MAX_PAUSE_MS);
    }
  }

  private async readLists(opts: ServerOptions): Promise<void> {
    const [pending, questions, statuses] = await Promise.all([
      pendingPermissions(this.port, opts),
      pendingQuestions(this.port, opts),
      sessionStatuses(this.port, opts),
    ]);
    if (!pending.ok) throw new Error(pending.problem);
    if (!questions.ok) throw new Error(questions.problem);
    if (!statuses.ok) throw new Error(statuses.problem);
    this.state.setWaiting(pending.value.pending);
    this.state.setQuestions(questions.value.pending);
    this.state.setStatuses(statuses.value);
  }

  /** The models' context windows, read once; without them the state still stands, only the context waits. */
  private async readWindows(opts: ServerOptions): Promise<void> {
    if (this.windows.size > 0) return;
    const windows = await modelWindows(this.port, opts);
    if (!windows.ok || this.closed) return;
    this.windows = windows.value;
    this.changed();
  }
}
