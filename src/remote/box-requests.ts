/**
 * The action requests one host link has sent its box and not had answered yet: each waits under its
 * id for the box's plan or outcome. A plan the box says nothing about for too long, or whose
 * connection ends, fails. A run that was sent is another matter: the box may have acted before the
 * silence or the loss, so its outcome is "not known whether it was done", never "failed", and it is
 * never sent again. The box's offer to terminate stragglers is answered only for a running request of
 * this side, once at a time.
 */
import type { ActionOutcome, ActionPlan, ActionProgress, ActionRequest } from '../kit/types.js';
import type { ClientMessage, ServerMessage } from './protocol.js';

/** What this tower has written to a box and the box has not read yet; past this a box is not reading. */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/** Requests waiting for a box's answer at once; a press of a key while its request waits adds none. */
export const MAX_PENDING = 32;
/** A running action whose box says nothing about it for this long is given up here (progress comes every second). */
export const RUN_SILENCE_SEC = 120;

/** What the requests need of their link. */
export interface RequestsLink {
  /** The host's name, in messages. */
  readonly name: string;
  /** Seconds a plan may take, and the least a run may stay silent. */
  readonly timeoutSec: number;
  /** Why nothing can be sent now (the box is not connected), else null. */
  unavailable(): string | null;
  /** Writes a message to the box: false when the box has left too much unread. */
  write(msg: ClientMessage): boolean;
  /** Notes something wrong with what the box sent. */
  problem(text: string): void;
}

/** The answers the box sends about a request. */
export type RequestAnswer = Extract<ServerMessage, { type: 'plan' | 'progress' | 'offer' | 'outcome' | 'error' }>;

/** Hooks of a run: cancelling it, its progress, the straggler offer. */
export interface RunRequestHooks {
  signal?: AbortSignal | undefined;
  onProgress?: ((p: ActionProgress) => void) | undefined;
  offerTerminate?: ((alive: string[]) => Promise<string[]>) | undefined;
}

interface Pending {
  /** What was asked, for messages: "the plan of grant", "checkpoint". */
  what: string;
  /** A run that may act on the box (not a plan, not a dry run): its fate is unknown when the box goes silent. */
  acts?: boolean;
  timer: NodeJS.Timeout | null;
  /** Whether the box has an offer open for this request that this side is answering. */
  offerOpen?: boolean;
  resolvePlan?: (p: ActionPlan) => void;
  resolveOutcome?: (o: ActionOutcome) => void;
  reject: (e: Error) => void;
  onProgress?: ((p: ActionProgress) => void) | undefined;
  offerTerminate?: ((alive: string[]) => Promise<string[]>) | undefined;
}

export class BoxRequests {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly link: RequestsLink) {}

  /** Asks the box for the plan of a request (its exact effects there). */
  plan(request: ActionRequest, dryRun: boolean): Promise<ActionPlan> {
    return new Promise((resolve, reject) => {
      const limitSec = this.link.timeoutSec;
      const pending: Pending = { what: `the plan of ${request.kind}`, timer: null, resolvePlan: resolve, reject };
      const id = this.send({ type: 'plan', id: this.nextId, request, dryRun }, pending);
      if (typeof id === 'string') reject(new Error(id));
      else this.expireAfter(id, pending, limitSec);
    });
  }

  /** Runs a request on the box (planned again there); progress and the straggler offer come back. */
  run(request: ActionRequest, dryRun: boolean, hooks: RunRequestHooks): Promise<ActionOutcome> {
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        what: `${request.kind}`,
        acts: !dryRun,
        timer: null,
        resolveOutcome: resolve,
        reject,
        onProgress: hooks.onProgress,
        offerTerminate: hooks.offerTerminate,
      };
      const id = this.send({ type: 'run', id: this.nextId, request, dryRun }, pending);
      if (typeof id === 'string') {
        reject(new Error(id));
        return;
      }
      this.expireAfter(id, pending, Math.max(RUN_SILENCE_SEC, this.link.timeoutSec));
      hooks.signal?.addEventListener('abort', () => this.link.write({ type: 'cancel', id }), { once: true });
    });
  }

  /** What the box said about a request. */
  received(msg: RequestAnswer): void {
    switch (msg.type) {
      case 'plan':
        this.settle(msg.id)?.resolvePlan?.(msg.plan);
        return;
      case 'progress': {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.expireAfter(msg.id, p, Math.max(RUN_SILENCE_SEC, this.link.timeoutSec));
        p.onProgress?.(msg.progress);
        return;
      }
      case 'offer':
        this.onOffer(msg.id, msg.alive);
        return;
      case 'outcome':
        this.settle(msg.id)?.resolveOutcome?.(msg.outcome);
        return;
      case 'error':
        if (msg.id !== null) this.settle(msg.id)?.reject(new Error(`${this.link.name}: ${msg.message}`));
        else this.link.problem(`said: ${msg.message}`);
        return;
    }
  }

  /**
   * The connection ended: every request still waiting ends, saying why; a run the box was sent may
   * have been done there, and says so.
   */
  failAll(why: string): void {
    for (const [id, p] of [...this.pending]) {
      this.settle(id);
      if (p.acts && p.resolveOutcome)
        p.resolveOutcome(this.inDoubt(p, `the connection was lost before it said how it went (${why})`));
      else p.reject(new Error(`${this.link.name}: ${why}`));
    }
  }

  /**
   * The outcome of a run the box was sent and then said nothing more about: it may have acted (typed
   * the key, written the file) right before, so neither done nor failed is known.
   */
  private inDoubt(p: Pending, then: string): ActionOutcome {
    return {
      status: 'timeout',
      message:
        `not known whether ${p.what} was done on ${this.link.name}: it was sent, then ${then}; ` +
        `look there before doing it again`,
    };
  }

  /** Sends a request and keeps it pending: its id, or why it was not sent. */
  private send(msg: ClientMessage & { id: number }, p: Pending): number | string {
    const unavailable = this.link.unavailable();
    if (unavailable !== null) return unavailable;
    if (this.pending.size >= MAX_PENDING)
      return `${this.link.name} has ${this.pending.size} requests unanswered; try again when it answers`;
    if (!this.link.write(msg))
      return (
        `${this.link.name} is not reading what this tower sends ` + `(${Math.round(MAX_QUEUED_BYTES / 1024)} KB unread)`
      );
    this.nextId++;
    this.pending.set(msg.id, p);
    return msg.id;
  }

  /** Gives a request up after `sec` seconds without a word about it from the box (restarted by each). */
  private expireAfter(id: number, p: Pending, sec: number): void {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (p.offerOpen) return this.expireAfter(id, p, sec);
      if (this.pending.get(id) !== p) return;
      this.pending.delete(id);
      if (p.acts && p.resolveOutcome)
        p.resolveOutcome(this.inDoubt(p, `${this.link.name} said nothing about it for ${sec} s`));
      else p.reject(new Error(`${this.link.name} did not answer ${p.what} within ${sec} s`));
    }, sec * 1000);
    p.timer.unref?.();
  }

  /** The request `id` is answered (or failed): it leaves the pending ones. */
  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    return p;
  }

  /**
   * A box asks which stragglers to terminate: answered only for a running request of this side that
   * has no offer open already, once; any other offer is a problem, never an answer written back.
   */
  private onOffer(id: number, alive: string[]): void {
    const p = this.pending.get(id);
    if (!p?.resolveOutcome || p.offerOpen) {
      this.link.problem(
        `offered to terminate members for a request this tower did not make or is already answering (${id})`,
      );
      return;
    }
    p.offerOpen = true;
    const ask = p.offerTerminate ? p.offerTerminate(alive) : Promise.resolve([]);
    void ask
      .catch(() => [] as string[])
      .then((names) => {
        p.offerOpen = false;
        if (this.pending.get(id) === p)
          this.link.write({ type: 'answer-offer', id, names: names.filter((n) => alive.includes(n)) });
      });
  }
}
