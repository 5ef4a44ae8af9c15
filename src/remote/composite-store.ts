/**
 * Every box in one snapshot: this box's live store (unless left out) beside one streaming link per
 * host. Each link has its own timeouts and reconnection, so a slow or dead host never delays the
 * others; its last known runs stay, marked stale, with its state in `hosts` and in the problems.
 */
import type { HostConfig } from '../config/config.js';
import type { HostState, Problem, Run, Snapshot } from '../model/model.js';
import type { SnapshotStore } from '../store/types.js';
import { HostRunMapper, hostProblem, hostProblems, splitHostRunId } from './host-runs.js';
import { HostLink } from './link.js';
import { removeOldControlDirs } from './old-control-dirs.js';
import { ControlDir } from './ssh.js';

/** The local store's snapshot when this box is left out. */
const EMPTY: Snapshot = { version: 1, generatedAt: new Date(0).toISOString(), runs: [], problems: [] };
/**
 * The least time between two publishes (one display frame). The far side already coalesces its
 * own changes into frames, so a change that arrives after a quiet frame is published at once:
 * waiting a second frame here put ~17 ms on every remote change (a file written on the far side
 * to this store's emit: 40 ms, 21 ms without; test/bench/remote.bench.ts).
 */
export const FRAME_MS = 16;

export interface CompositeOptions {
  hosts: readonly HostConfig[];
  /** This box's live store, or null with --no-local. */
  local: SnapshotStore | null;
  timeoutSec: number;
  /** Keep reconnecting (the live screen) or try once (a one-shot command). */
  reconnect: boolean;
  /** The reader shipped to a box without tower (default: next to this bundle). */
  reader?: string | undefined;
  /** This tower's rules file, sent to the hosts set to `rules: "yours"`. */
  rulesFile?: string | undefined;
  now?: () => number;
}

/** The combined store; `links` and `controlDir` are exposed for actions (plan, run, attach on a host). */
export class CompositeStore implements SnapshotStore {
  readonly links: HostLink[];
  readonly controlDir: ControlDir;
  private readonly mappers: HostRunMapper[];
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribes: (() => void)[] = [];
  private snapshot: Snapshot = EMPTY;
  /** Cancels the publish waiting for its turn (the next turn of the event loop, or the frame's end). */
  private cancelPublish: (() => void) | null = null;
  /** When listeners were last told (monotonic ms), -∞ before the first time. */
  private lastPublish = -Infinity;
  private readonly now: () => number;

  constructor(private readonly opts: CompositeOptions) {
    this.now = opts.now ?? Date.now;
    // Folders of towers killed before they could remove theirs go first (in the background).
    void removeOldControlDirs().catch(() => undefined);
    this.controlDir = new ControlDir();
    this.links = opts.hosts.map(
      (h, i) =>
        new HostLink(h, {
          controlPath: this.controlDir.socketFor(i),
          timeoutSec: opts.timeoutSec,
          reconnect: opts.reconnect,
          reader: opts.reader,
          rulesFile: opts.rulesFile,
          now: this.now,
        }),
    );
    this.mappers = opts.hosts.map((h) => new HostRunMapper(h.name));
    this.snapshot = this.combine();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): Snapshot => this.snapshot;

  /** The link of a host by name. */
  link(name: string): HostLink | undefined {
    return this.links.find((l) => l.host.name === name);
  }

  /** Starts every host and the local store; resolves when each has a first answer (or failed). */
  async start(): Promise<void> {
    for (const l of this.links) {
      this.unsubscribes.push(l.subscribe(() => this.schedule()));
      l.start();
    }
    if (this.opts.local) this.unsubscribes.push(this.opts.local.subscribe(() => this.schedule()));
    const local = this.opts.local?.start() ?? Promise.resolve();
    await Promise.all([local, ...this.links.map((l) => l.settled())]);
    this.publish();
  }

  async stop(): Promise<void> {
    this.cancelPublish?.();
    this.cancelPublish = null;
    for (const u of this.unsubscribes.splice(0)) u();
    await Promise.all([this.opts.local?.stop(), ...this.links.map((l) => l.stop())]);
    this.controlDir.dispose();
  }

  refresh(runId?: string): void {
    if (runId === undefined) {
      this.opts.local?.refresh();
      for (const l of this.links) l.refresh();
      return;
    }
    const split = splitHostRunId(
      runId,
      this.links.map((l) => l.host.name),
    );
    if (split) this.link(split.host)?.refresh(split.id);
    else this.opts.local?.refresh(runId);
  }

  /**
   * Coalesces bursts (several lines in one read, several hosts) into at most one publish per
   * frame: after a quiet frame on the next turn of the event loop, within one at the frame's end.
   */
  private schedule(): void {
    if (this.cancelPublish) return;
    const run = () => {
      this.cancelPublish = null;
      this.publish();
    };
    const wait = this.lastPublish + FRAME_MS - performance.now();
    if (wait <= 0) {
      const immediate = setImmediate(run);
      this.cancelPublish = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(run, Math.min(wait, FRAME_MS));
      this.cancelPublish = () => clearTimeout(timer);
    }
  }

  private publish(): void {
    const next = this.combine();
    const prev = this.snapshot;
    const same =
      next.runs.length === prev.runs.length &&
      next.runs.every((r, i) => r === prev.runs[i]) &&
      JSON.stringify([next.problems, next.hosts]) === JSON.stringify([prev.problems, prev.hosts]);
    if (same) return;
    this.snapshot = next;
    this.lastPublish = performance.now();
    for (const l of this.listeners) l();
  }

  private combine(): Snapshot {
    const local = this.opts.local?.getSnapshot() ?? EMPTY;
    const runs: Run[] = [...local.runs];
    const problems: Problem[] = [...local.problems];
    const hosts: HostState[] = [];
    this.links.forEach((l, i) => {
      hosts.push(l.rules ? { ...l.state, rules: l.rules } : l.state);
      const mapper = this.mappers[i];
      if (mapper && l.snapshot) runs.push(...mapper.map(l.snapshot.runs, l.state.state !== 'ok', !l.sendsActivity));
      const hp = hostProblem(l.state);
      if (hp) problems.push(hp);
      problems.push(...hostProblems(l.host.name, l.snapshot));
      for (const message of l.problems) problems.push({ file: null, message: `host ${l.host.name}: ${message}` });
    });
    return { version: 1, generatedAt: new Date(this.now()).toISOString(), runs, problems, hosts };
  }
}
