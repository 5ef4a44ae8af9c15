/**
 * The previewed pane streams: while one pane is previewed, each time it prints (tmux's control-mode
 * notification, src/tmux/pane-output.ts) it is captured again, at most once per PREVIEW_MS; every
 * other pane stays on the poll tick. One pane at a time: following another stops the first, and
 * following none stops it. A follower that ends (the pane gone) is started again after a pause, a
 * bounded number of times, while its pane is still the one previewed; then the pane is captured
 * once a second while previewed.
 */
import type { Member, Run } from '../model/model.js';
import type { PaneCapture } from '../tmux/capture.js';
import type { TmuxClient } from '../tmux/client.js';
import type { followPaneOutput, PaneOutputFollower } from '../tmux/pane-output.js';
import { memberPaneKey, splitPaneKey } from './pane-keys.js';
import type { PaneWatch } from './captures.js';
import type { PaneLook, PaneLooks } from './pane-looks.js';

/**
 * The least time between two captures of the previewed pane: ten a second at most while it prints.
 * A line printed alone is captured at once (~20 ms to the screen); in a burst it waits ≤ 100 ms.
 */
export const PREVIEW_MS = 100;
/**
 * The same on a box, for a preview on another: `tower serve` captures a pane that prints on at most
 * four times a second (each capture's reading and sending costs the box as much as tmux's work), and a
 * line printed alone still at once.
 */
export const SERVED_PREVIEW_MS = 250;
/** Pauses before following a pane again after its follower ended. */
const RETRY_MS = [500, 2000, 5000] as const;
/**
 * A pane that cannot be followed (a tmux before 3.2 has no `attach -f ignore-size`) is captured
 * this often instead while previewed: one pane, once a second, as the selected run's are per tick.
 */
export const UNFOLLOWED_MS = 1000;

/** A capture asked of the followed pane's control client, null when it cannot give one. */
export type ViaFollower = (history: number) => Promise<PaneCapture | null>;

export interface PreviewStreamDeps {
  /** The client of the server a pane key is on (null: not reachable from here). */
  clientFor(key: string): TmuxClient | null;
  /** The pane id of a key on its server. */
  paneIdOf(key: string): string;
  /**
   * Captures that one pane (and tells the watch's listeners when it changed); `via`, while the pane
   * is followed: the capture asked of its control client (null from it: capture as usual).
   */
  capture(key: string, via?: ViaFollower): Promise<void>;
  /** Follows a pane (tests swap one in). */
  follow?: typeof followPaneOutput;
  /** The least time between two captures while the pane prints (default PREVIEW_MS). */
  minMs?: number;
  /** The pauses before following again, and how often an unfollowed pane is captured (tests shorten them). */
  retryMs?: readonly number[];
  unfollowedMs?: number;
}

/** The follower, loaded the first time a pane streams: the control client's code is on no start path. */
let loadedFollow: typeof followPaneOutput | null = null;

export class PreviewStream {
  private key: string | null = null;
  private follower: PaneOutputFollower | null = null;
  private retries = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private captureTimer: NodeJS.Timeout | null = null;
  private capturing = false;
  /** The pane printed while a capture ran or waited: one more capture after it. */
  private again = false;
  private lastCaptureAt = -Infinity;

  constructor(private readonly d: PreviewStreamDeps) {}

  /** The capture through the control client of `key` while it is the pane streamed, else undefined. */
  viaFor(key: string): ViaFollower | undefined {
    const follower = key === this.key ? this.follower : null;
    return follower?.capture ? (history) => follower.capture!(history) : undefined;
  }

  /** The pane (by paneKey) previewed now; null: none. */
  get following(): string | null {
    return this.key;
  }

  /** Streams this pane from now on (null: none); the same key again changes nothing. */
  follow(key: string | null): void {
    if (key === this.key) return;
    this.stopFollowing();
    this.key = key;
    this.retries = 0;
    if (key !== null) this.start(key);
  }

  stop(): void {
    this.follow(null);
  }

  private start(key: string): void {
    const client = this.d.clientFor(key);
    if (!client) return;
    const follow = this.d.follow ?? loadedFollow;
    if (!follow) {
      void import('../tmux/pane-output.js').then((m) => {
        loadedFollow = m.followPaneOutput;
        if (this.key === key && !this.follower && !this.retryTimer) this.start(key);
      });
      // What the pane shows now, captured as usual while the follower loads.
      this.printed(key);
      return;
    }
    this.follower = follow(
      client,
      this.d.paneIdOf(key),
      () => this.printed(key),
      () => this.ended(key),
    );
    // What the pane shows now, without waiting for it to print.
    this.printed(key);
  }

  private ended(key: string): void {
    if (this.key !== key) return;
    this.follower = null;
    const wait = (this.d.retryMs ?? RETRY_MS)[this.retries];
    if (wait === undefined) {
      this.retryTimer = setInterval(() => this.printed(key), this.d.unfollowedMs ?? UNFOLLOWED_MS);
      this.retryTimer.unref?.();
      return;
    }
    this.retries++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.key === key) this.start(key);
    }, wait);
    this.retryTimer.unref?.();
  }

  /** The pane printed: a capture now, or when the last one is minMs old, or after the running one. */
  private printed(key: string): void {
    if (this.key !== key) return;
    if (this.capturing || this.captureTimer) {
      this.again = true;
      return;
    }
    const wait = this.lastCaptureAt + (this.d.minMs ?? PREVIEW_MS) - performance.now();
    if (wait > 0) {
      this.again = false;
      this.captureTimer = setTimeout(() => {
        this.captureTimer = null;
        void this.capture(key);
      }, wait);
      // What it prints until then is heard with that capture, in one wake.
      this.follower?.hold?.();
      return;
    }
    void this.capture(key);
  }

  private async capture(key: string): Promise<void> {
    if (this.key !== key) return;
    this.capturing = true;
    this.again = false;
    this.lastCaptureAt = performance.now();
    try {
      await this.d.capture(key, this.viaFor(key));
    } catch {
      // A failed capture is the poll tick's to report; the next print tries again.
    } finally {
      this.capturing = false;
    }
    if (this.again) this.printed(key);
  }

  private stopFollowing(): void {
    this.follower?.stop();
    this.follower = null;
    if (this.retryTimer) clearInterval(this.retryTimer);
    if (this.captureTimer) clearTimeout(this.captureTimer);
    this.retryTimer = this.captureTimer = null;
    this.again = false;
  }
}

/** This box's captures as the preview reads them, with the previewed pane streaming. */
export class LocalPaneLooks implements PaneLooks {
  readonly stream: PreviewStream;

  constructor(
    readonly watch: PaneWatch,
    minMs: number = PREVIEW_MS,
  ) {
    this.stream = new PreviewStream({
      minMs,
      clientFor: (key) => watch.clientOf(splitPaneKey(key).server),
      paneIdOf: (key) => splitPaneKey(key).paneId,
      capture: (key, via) => watch.round([key], null, undefined, [], via),
    });
    watch.viaOf = (key) => this.stream.viaFor(key);
  }

  subscribe = (listener: () => void): (() => void) => this.watch.subscribe(listener);
  getVersion = (): number => this.watch.getVersion();

  focus(runId: string | null): void {
    this.watch.focus(runId);
  }

  lookOf(m: Member, run?: Run | null): PaneLook | undefined {
    return this.watch.lookOf(m, run);
  }

  /** Streams the previewed member's pane (none: a run of another box, a pane not alive). */
  preview(run: Run | null, member: Member | null): void {
    this.stream.follow(member && member.state === 'alive' && !run?.host ? memberPaneKey(member) : null);
  }

  /** The pane streamed now (by paneKey), or null. */
  get previewed(): string | null {
    return this.stream.following;
  }
}
