/**
 * Following one opencode server: its `GET /event` stream read as it comes, its lists (the requests
 * waiting, the busy sessions, the models' windows) read again on each connect, since events missed
 * while away are not sent again. The stream is reconnected with a growing pause (0.5 s doubling to
 * 30 s) while the server is away; nothing is kept of it but the bounded state (state.ts).
 */
import type { ServerFollow, ServerReading } from '../types.js';
import { EventParser, modelWindows, pendingPermissions, sessionStatuses } from './server.js';
import type { ServerOptions } from './server.js';
import { OpencodeState } from './state.js';
import { requestOf } from './requests.js';

const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 30_000;
/** How long connecting to the stream may take (the stream itself stays open). */
const CONNECT_MS = 5000;

/** Follows the server on 127.0.0.1:`port` until closed. */
export class OpencodeFollow implements ServerFollow {
  private state = new OpencodeState();
  private connected = false;
  private closed = false;
  private why: string | null = null;
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
  ) {
    void this.connect();
  }

  read(): ServerReading | null {
    if (!this.connected) return null;
    const a = this.state.activity();
    if (!a) return null;
    const waiting = this.state.pending()[0] ?? null;
    const asked = waiting ? requestOf(this.port, waiting) : null;
    // The time the reading last changed (what it is, or the request asked) is its "since".
    const key = `${a.activity}:${a.cue}:${waiting?.id ?? ''}`;
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

  problem(): string | null {
    return this.why;
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
    try {
      // Connecting is bounded; the stream, once open, is not (it is read as it comes).
      const slow = setTimeout(() => abort.abort(new Error('it did not answer GET /event in time')), CONNECT_MS);
      const res = await fetch(`http://127.0.0.1:${this.port}/event`, {
        headers: this.opts.password
          ? { authorization: `Basic ${Buffer.from(`opencode:${this.opts.password}`).toString('base64')}` }
          : {},
        signal: abort.signal,
      }).finally(() => clearTimeout(slow));
      if (!res.ok || !res.body) throw new Error(`it said ${res.status} to GET /event`);
      // The stream is open: what was missed before it is read from the lists.
      await this.readLists();
      this.connected = true;
      this.why = null;
      this.pause = FIRST_PAUSE_MS;
      this.tried();
      this.changed();
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
      this.connected = false;
      this.why = `opencode's server on port ${this.port}: ${(err as Error).message.slice(0, 200)}`;
      if (was) this.changed();
      this.timer = setTimeout(() => void this.connect(), this.pause);
      this.timer.unref();
      this.pause = Math.min(this.pause * 2, MAX_PAUSE_MS);
    }
  }

  private async readLists(): Promise<void> {
    const [pending, statuses, windows] = await Promise.all([
      pendingPermissions(this.port, this.opts),
      sessionStatuses(this.port, this.opts),
      this.windows.size > 0 ? null : modelWindows(this.port, this.opts),
    ]);
    if (!pending.ok) throw new Error(pending.problem);
    if (!statuses.ok) throw new Error(statuses.problem);
    this.state.setWaiting(pending.value.pending);
    this.state.setStatuses(statuses.value);
    // Without the windows the state still stands; only the context waits for the next connect.
    if (windows?.ok) this.windows = windows.value;
  }
}
