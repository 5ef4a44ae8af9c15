/**
 * One host's connection: `ssh … <tower> serve --stdio`, kept open. Tracks the host's state (ok,
 * connecting, unreachable since when and why), its last snapshot (kept when the host goes away),
 * reconnects with backoff, and carries action requests to the host and their answers back (the
 * requests waiting for an answer are box-requests.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ActionOutcome, ActionPlan, ActionRequest } from '../kit/types.js';
import type { HostConfig } from '../config/config.js';
import type { HostState, Snapshot } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { BoxRequests, MAX_QUEUED_BYTES } from './box-requests.js';
import type { RunRequestHooks } from './box-requests.js';
import { admitLine } from './door.js';
import { MAX_LINE_BYTES, lineSplitter } from './lines.js';
import type { ClientMessage, Hello } from './protocol.js';
import { PaneFeed } from './pane-feed.js';
import type { PaneView } from './pane-feed.js';
import {
  ACTIVITY,
  ORDER_WHEN_MOVED,
  PANE_PREVIEW,
  PROTOCOL_VERSION,
  RULES,
  RULE_DECISIONS,
  applyChanges,
  encode,
} from './protocol.js';
import { BoxDecisions } from './box-decisions.js';
import { OperatorRules } from './operator-rules.js';
import { readReaderBundle, shipCommand, shipPayload, towerMissing } from './ship.js';
import { describeSshFailure, serveCommand, sshArgv } from './ssh.js';

/** Seconds between reconnection attempts: doubling, then capped. */
export const BACKOFF_SEC = [1, 2, 4, 8, 15] as const;
const STDERR_KEEP = 4096;
/** The last problems a box's messages had, newest last (each said once). */
const KEEP_PROBLEMS = 20;

export interface LinkOptions {
  /** This host's control socket (in a private directory): every ssh to the host shares its connection. */
  controlPath: string;
  /** Seconds to connect and get the first snapshot. */
  timeoutSec: number;
  /** Whether to reconnect after a loss (false for one-shot commands). */
  reconnect: boolean;
  /** The single-file reader shipped to a box without tower (default: next to this bundle). */
  reader?: string | undefined;
  /** This tower's rules file, sent to a host set to `rules: "yours"`. */
  rulesFile?: string | undefined;
  now?: () => number;
}

export class HostLink {
  state: HostState;
  /** The host's last snapshot (runs with the host's own ids), null before the first. */
  snapshot: Snapshot | null = null;
  hello: Hello | null = null;
  /** What was wrong with what the box sent (newest last), shown on its row. */
  problems: string[] = [];
  /** Whose rules answer on the box, once it said so (or once it showed it cannot say: an older tower). */
  rules: HostState['rules'];
  /** The box's decisions by rule, each once across reconnections (a box of an older tower tells none). */
  readonly decisions = new BoxDecisions();

  private child: ChildProcessWithoutNullStreams | null = null;
  private stderr = '';
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private helloTimer: NodeJS.Timeout | null = null;
  private failure: string | null = null;
  private stopped = false;
  /** Whether this tower's own reader is sent over the connection (the box has no tower). */
  private shipping = false;
  /** A first snapshot that came before the box said whose rules answer: connected once it says. */
  private awaitingRules = false;
  /** This tower's rules as sent to the box (a host set to `rules: "yours"`). */
  private readonly operatorRules: OperatorRules | null;
  private readonly listeners = new Set<() => void>();
  private readonly paneListeners = new Set<() => void>();
  private readonly now: () => number;
  /** The action requests sent to the box and not answered yet. */
  private readonly requests: BoxRequests;
  /** The pane previewed here, as the box streams it. */
  private readonly feed = new PaneFeed({
    write: (msg) => this.write(msg),
    problem: (text) => this.noteProblems([text]),
    changed: () => {
      for (const l of this.paneListeners) l();
    },
  });

  constructor(
    readonly host: HostConfig,
    readonly opts: LinkOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.requests = new BoxRequests({
      name: host.name,
      timeoutSec: opts.timeoutSec,
      unavailable: () => this.unavailable(),
      write: (msg) => this.write(msg),
      problem: (text) => this.noteProblems([text]),
    });
    this.state = { name: host.name, state: 'connecting', since: this.iso(), error: null };
    this.operatorRules =
      host.rules === 'yours' ? new OperatorRules(opts.rulesFile, (text) => this.write({ type: 'rules', text })) : null;
  }

  /** Whether the box says whose rules answer there and takes this tower's (a tower older than that does not). */
  get takesRules(): boolean {
    return this.hello?.features?.includes(RULES) ?? false;
  }

  /** Whether the box sends its members' activity (a tower older than that sends none). */
  get sendsActivity(): boolean {
    return this.hello?.features?.includes(ACTIVITY) ?? false;
  }

  /** Whether the box streams a pane it is asked for (a tower older than that does not). */
  get streamsPanes(): boolean {
    return this.hello?.features?.includes(PANE_PREVIEW) ?? false;
  }

  /**
   * Previews a pane of the box here (null: none): the box streams it while it is asked to, and
   * captures the panes of `run` (its id there) on every tick, as this side's selected run.
   */
  preview(pane: string | null, server: string | null = null, run: string | null = null): void {
    this.feed.want(pane, server, this.state.state === 'ok' && this.streamsPanes, run);
  }

  /** The previewed pane as the box last sent it, or null. */
  get pane(): PaneView | null {
    return this.feed.view;
  }

  /** Called when the previewed pane's lines change (not with the snapshot: a pane prints often). */
  subscribePane(listener: () => void): () => void {
    this.paneListeners.add(listener);
    return () => this.paneListeners.delete(listener);
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
    this.operatorRules?.stop();
    this.feed.dispose();
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
    return this.requests.plan(request, dryRun);
  }

  /** Runs a request on the host (planned again there); progress and the straggler offer come back. */
  run(request: ActionRequest, dryRun: boolean, hooks: RunRequestHooks): Promise<ActionOutcome> {
    return this.requests.run(request, dryRun, hooks);
  }

  /** Asks the host to read again now. */
  refresh(runId?: string): void {
    this.write(runId === undefined ? { type: 'refresh' } : { type: 'refresh', runId });
  }

  /** Why no request can be sent now (the box is not connected), else null. */
  private unavailable(): string | null {
    if (this.state.state === 'ok' && this.child) return null;
    return `${this.host.name} is ${this.state.state}${this.state.error ? `: ${this.state.error}` : ''}`;
  }

  /** Writes a message unless the box has left too much unread: false then (nothing is queued). */
  private write(msg: ClientMessage): boolean {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || stdin.writableLength > MAX_QUEUED_BYTES) return false;
    stdin.write(encode(msg));
    return true;
  }

  /** Notes what was wrong with what the box sent, each once, the last few kept. */
  private noteProblems(found: readonly string[]): void {
    let changed = false;
    for (const text of found) {
      const at = this.problems.indexOf(text);
      if (at >= 0 && at === this.problems.length - 1) continue;
      if (at >= 0) this.problems.splice(at, 1);
      this.problems.push(text);
      changed = true;
    }
    if (this.problems.length > KEEP_PROBLEMS) this.problems.splice(0, this.problems.length - KEEP_PROBLEMS);
    if (changed) this.emit();
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
    const split = lineSplitter((line) => this.onLine(line), {
      onOverlong: (bytes) =>
        this.noteProblems([
          `sent a line longer than ${Math.round(MAX_LINE_BYTES / 1048576)} MB ` +
            `(${Math.round(bytes / 1048576)} MB so far); it was dropped`,
        ]),
    });
    child.stdout.on('data', split);
    child.stderr.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', () => {});
    child.on('error', (err) => {
      this.failure = `could not run ssh: ${err.message}`;
    });
    child.on('close', (code) => this.onExit(child, code));
    this.helloTimer = setTimeout(() => {
      this.failure =
        `${this.host.destination} sent nothing within ${this.opts.timeoutSec} s (a slow ` +
        `or stopped box, or a tower that does not start)`;
      child.kill('SIGKILL');
    }, this.opts.timeoutSec * 1000);
  }

  private onLine(line: string): void {
    if (this.feed.cuts(line)) return;
    const { message: msg, problems } = admitLine(line);
    if (problems.length) this.noteProblems(problems);
    if (!msg) return;
    switch (msg.type) {
      case 'hello':
        if (msg.protocol !== PROTOCOL_VERSION) {
          this.failure =
            `${this.host.name} runs tower ${msg.tower} speaking protocol ` +
            `${msg.protocol}, this tower speaks ${PROTOCOL_VERSION}: install the same tower version on both boxes`;
          this.child?.kill('SIGTERM');
          return;
        }
        this.hello = msg;
        this.problems = [];
        if (!this.sendsActivity)
          this.noteProblems([
            `runs an older tower (${msg.tower}) that does not send what its agents are doing: their ` +
              `activity shows as unknown`,
          ]);
        this.useFeatures();
        return;
      case 'snapshot':
        if (!this.hello) return;
        this.snapshot = msg.snapshot;
        // Connected once the box has said whose rules answer there too, so a one-shot status carries it.
        if (this.takesRules && !this.rules) this.awaitingRules = true;
        else this.connected();
        this.feed.connected(this.streamsPanes);
        return;
      case 'rules':
        if (!this.hello) return;
        this.rules = { whose: msg.whose, problem: msg.problem ?? this.operatorRules?.problem ?? null };
        if (msg.problem)
          this.noteProblems([
            `${msg.whose === 'yours' ? 'your rules' : 'its own rules'} answer nothing there: ${msg.problem}`,
          ]);
        if (this.awaitingRules) {
          this.awaitingRules = false;
          this.connected();
        } else this.emit();
        return;
      case 'pane':
        this.feed.received(msg, line.length);
        return;
      case 'rule-decision':
        if (this.hello) this.decisions.received(msg);
        return;
      case 'changes':
        if (!this.snapshot) return;
        this.snapshot = applyChanges(this.snapshot, msg);
        this.emit();
        return;
      case 'plan':
      case 'progress':
      case 'offer':
      case 'outcome':
      case 'error':
        this.requests.received(msg);
        return;
    }
  }

  /** Turns on what the box offers: changes without the order, whose rules answer there and what they decide. */
  private useFeatures(): void {
    const offered = this.hello?.features ?? [];
    const use = [ORDER_WHEN_MOVED, RULES, RULE_DECISIONS].filter((f) => offered.includes(f));
    if (use.length) this.write({ type: 'use', features: use });
    this.rules = undefined;
    if (this.takesRules) {
      if (this.operatorRules) this.operatorRules.start();
      else this.write({ type: 'rules' });
      return;
    }
    // An older tower: its own rules (if any) answer there, whatever this tower's setting.
    const cannot = this.operatorRules
      ? `runs an older tower (${this.hello?.tower ?? '?'}) that cannot take your rules: its own rules answer there`
      : null;
    this.rules = { whose: 'box', problem: cannot };
    if (cannot) this.noteProblems([cannot]);
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
    this.feed.dropped();
    this.operatorRules?.stop();
    this.awaitingRules = false;
    this.clearTimers();
    const why = this.failure ?? describeSshFailure(this.host, this.stderr, code);
    this.requests.failAll(why);
    if (this.stopped) return;
    // No tower on the box: run this tower's own reader there instead, at once.
    if (
      !this.shipping &&
      !this.hello &&
      this.failure === null &&
      towerMissing(this.stderr, code) &&
      readReaderBundle(this.opts.reader) !== null
    ) {
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
    // The error can quote the box's own stderr: made safe to print like everything else it sends.
    this.state = {
      name: this.host.name,
      state,
      since,
      error: error === null ? null : sanitizeLine(error).slice(0, STDERR_KEEP),
    };
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
