/**
 * One host's connection: `ssh … <tower> serve --stdio`, kept open. Tracks the host's state (ok,
 * connecting, unreachable since when and why), its last snapshot (kept when the host goes away),
 * reconnects with backoff, and carries action requests to the host and their answers back.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ActionOutcome, ActionPlan, ActionProgress, ActionRequest } from '../kit/types.js';
import type { HostConfig } from '../config/config.js';
import type { HostState, Snapshot } from '../model.js';
import type { ClientMessage, Hello, ServerMessage } from './protocol.js';
import { PROTOCOL_VERSION, applyChanges, decodeLine, encode, lineSplitter } from './protocol.js';
import { readReaderBundle, shipCommand, shipPayload, towerMissing } from './ship.js';
import { describeSshFailure, serveCommand, sshArgv } from './ssh.js';

/** Seconds between reconnection attempts: doubling, then capped. */
export const BACKOFF_SEC = [1, 2, 4, 8, 15] as const;
const STDERR_KEEP = 4096;

export interface LinkOptions {
  /** This host's control socket (in a private directory): every ssh to the host shares its connection. */
  controlPath: string;
  /** Seconds to connect and get the first snapshot. */
  timeoutSec: number;
  /** Whether to reconnect after a loss (false for one-shot commands). */
  reconnect: boolean;
  /** The single-file reader shipped to a box without tower (default: next to this bundle). */
  reader?: string | undefined;
  now?: () => number;
}

interface Pending {
  resolvePlan?: (p: ActionPlan) => void;
  resolveOutcome?: (o: ActionOutcome) => void;
  reject: (e: Error) => void;
  onProgress?: ((p: ActionProgress) => void) | undefined;
  offerTerminate?: ((alive: string[]) => Promise<string[]>) | undefined;
}

export class HostLink {
  state: HostState;
  /** The host's last snapshot (runs with the host's own ids), null before the first. */
  snapshot: Snapshot | null = null;
  hello: Hello | null = null;

  private child: ChildProcessWithoutNullStreams | null = null;
  private stderr = '';
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private helloTimer: NodeJS.Timeout | null = null;
  private failure: string | null = null;
  private stopped = false;
  /** Whether this tower's own reader is sent over the connection (the box has no tower). */
  private shipping = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(
    readonly host: HostConfig,
    readonly opts: LinkOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.state = { name: host.name, state: 'connecting', since: this.iso(), error: null };
  }

  /** Called on every change of state or snapshot. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects (and keeps reconnecting when the options say so). */
  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Resolves once the host has sent its first snapshot or is unreachable. */
  settled(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.state.state !== 'connecting') {
          off();
          resolve();
        }
      };
      const off = this.subscribe(check);
      check();
    });
  }

  /** Closes the connection and stops reconnecting; resolves when ssh has exited. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Closing stdin ends the far side cleanly; a kill follows if ssh lingers.
    child.stdin.end();
    const kill = setTimeout(() => child.kill('SIGTERM'), 1000);
    const hard = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(kill);
    clearTimeout(hard);
  }

  /** Asks the host for the plan of a request (its exact effects there). */
  plan(request: ActionRequest, dryRun: boolean): Promise<ActionPlan> {
    return new Promise((resolve, reject) => {
      const id = this.send({ type: 'plan', id: this.nextId, request, dryRun }, { resolvePlan: resolve, reject });
      if (id === null) reject(new Error(this.unavailable()));
    });
  }

  /** Runs a request on the host (planned again there); progress and the straggler offer come back. */
  run(request: ActionRequest, dryRun: boolean, hooks: { signal?: AbortSignal | undefined; onProgress?: ((p: ActionProgress) => void) | undefined; offerTerminate?: ((alive: string[]) => Promise<string[]>) | undefined }): Promise<ActionOutcome> {
    return new Promise((resolve, reject) => {
      const id = this.send({ type: 'run', id: this.nextId, request, dryRun }, { resolveOutcome: resolve, reject, onProgress: hooks.onProgress, offerTerminate: hooks.offerTerminate });
      if (id === null) {
        reject(new Error(this.unavailable()));
        return;
      }
      hooks.signal?.addEventListener('abort', () => this.write({ type: 'cancel', id }), { once: true });
    });
  }

  /** Asks the host to read again now. */
  refresh(runId?: string): void {
    this.write(runId === undefined ? { type: 'refresh' } : { type: 'refresh', runId });
  }

  private unavailable(): string {
    return `${this.host.name} is ${this.state.state}${this.state.error ? `: ${this.state.error}` : ''}`;
  }

  private send(msg: ClientMessage & { id: number }, p: Pending): number | null {
    if (this.state.state !== 'ok' || !this.child) return null;
    this.nextId++;
    this.pending.set(msg.id, p);
    this.write(msg);
    return msg.id;
  }

  private write(msg: ClientMessage): void {
    if (this.child && this.child.stdin.writable) this.child.stdin.write(encode(msg));
  }

  private connect(): void {
    if (this.stopped) return;
    this.stderr = '';
    this.failure = null;
    const reader = this.shipping ? readReaderBundle(this.opts.reader) : null;
    const command = reader ? shipCommand(this.host) : serveCommand(this.host);
    const argv = sshArgv(this.host, this.opts.controlPath, this.opts.timeoutSec, command);
    const child = spawn('ssh', argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    if (reader) child.stdin.write(shipPayload(reader));
    if (this.state.state !== 'unreachable') this.setState('connecting', null);
    child.stdout.on('data', lineSplitter((line) => this.onLine(line)));
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', () => {});
    child.on('error', (err) => {
      this.failure = `could not run ssh: ${err.message}`;
    });
    child.on('close', (code) => this.onExit(child, code));
    this.helloTimer = setTimeout(() => {
      this.failure = `${this.host.destination} sent nothing within ${this.opts.timeoutSec} s (a slow or stopped box, or a tower that does not start)`;
      child.kill('SIGKILL');
    }, this.opts.timeoutSec * 1000);
  }

  private onLine(line: string): void {
    const msg = decodeLine(line) as ServerMessage | null;
    if (!msg) return;
    switch (msg.type) {
      case 'hello':
        if (msg.protocol !== PROTOCOL_VERSION) {
          this.failure = `${this.host.name} runs tower ${msg.tower} speaking protocol ${msg.protocol}, this tower speaks ${PROTOCOL_VERSION}: install the same tower version on both boxes`;
          this.child?.kill('SIGTERM');
          return;
        }
        this.hello = msg;
        return;
      case 'snapshot':
        if (!this.hello) return;
        this.snapshot = msg.snapshot;
        this.connected();
        return;
      case 'changes':
        if (!this.snapshot) return;
        this.snapshot = applyChanges(this.snapshot, msg);
        this.emit();
        return;
      case 'plan':
        this.pending.get(msg.id)?.resolvePlan?.(msg.plan);
        this.pending.delete(msg.id);
        return;
      case 'progress':
        this.pending.get(msg.id)?.onProgress?.(msg.progress);
        return;
      case 'offer': {
        const offer = this.pending.get(msg.id)?.offerTerminate;
        void (offer ? offer(msg.alive) : Promise.resolve([])).then((names) => this.write({ type: 'answer-offer', id: msg.id, names }));
        return;
      }
      case 'outcome':
        this.pending.get(msg.id)?.resolveOutcome?.(msg.outcome);
        this.pending.delete(msg.id);
        return;
      case 'error':
        if (msg.id !== null) {
          this.pending.get(msg.id)?.reject(new Error(msg.message));
          this.pending.delete(msg.id);
        }
        return;
    }
  }

  private connected(): void {
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloTimer = null;
    this.attempt = 0;
    if (this.state.state !== 'ok') this.setState('ok', null);
    else this.emit();
  }

  private onExit(child: ChildProcessWithoutNullStreams, code: number | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.clearTimers();
    const why = this.failure ?? describeSshFailure(this.host, this.stderr, code);
    for (const p of this.pending.values()) p.reject(new Error(`${this.host.name}: ${why}`));
    this.pending.clear();
    if (this.stopped) return;
    // No tower on the box: run this tower's own reader there instead, at once.
    if (!this.shipping && !this.hello && this.failure === null && towerMissing(this.stderr, code) && readReaderBundle(this.opts.reader) !== null) {
      this.shipping = true;
      this.connect();
      return;
    }
    this.setState('unreachable', why);
    if (!this.opts.reconnect) return;
    const wait = BACKOFF_SEC[Math.min(this.attempt, BACKOFF_SEC.length - 1)] ?? 15;
    this.attempt++;
    this.retryTimer = setTimeout(() => this.connect(), wait * 1000);
  }

  private setState(state: HostState['state'], error: string | null): void {
    const since = this.state.state === state ? this.state.since : this.iso();
    this.state = { name: this.host.name, state, since, error };
    this.emit();
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.retryTimer = null;
    this.helloTimer = null;
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
