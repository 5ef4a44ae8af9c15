/**
 * The preview's panes on every box: a member of this box is this box's capture (streamed while
 * previewed), a member of another box is what that box streams of its pane over the link. One pane
 * is previewed at a time, so at most one box streams one pane; moving the preview away stops it.
 */
import type { Member, Run } from '../model/model.js';
import type { PaneLook, PaneLooks } from '../store/captures.js';
import type { CompositeStore } from './composite-store.js';
import type { HostLink } from './link.js';
import type { PaneView } from './pane-feed.js';

/** What another box's pane reads as here: its text only (its activity is the member's own). */
const REMOTE_READING = { activity: 'unknown', cue: 'silent' } as const;

export class BoxPaneLooks implements PaneLooks {
  private version = 0;
  private streaming: HostLink | null = null;
  /** The look made of a box's view, kept while the view is the same object (the screen memoises on it). */
  private made = new WeakMap<PaneView, PaneLook>();
  private readonly listeners = new Set<() => void>();
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly local: PaneLooks | null,
    private readonly store: CompositeStore,
  ) {
    for (const link of store.links) this.offs.push(link.subscribePane(() => this.bump()));
    // A link that comes back or goes away may change what the preview can say.
    for (const link of store.links) this.offs.push(link.subscribe(() => link === this.streaming && this.bump()));
    if (local) this.offs.push(local.subscribe(() => this.bump()));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  focus(runId: string | null): void {
    this.local?.focus(runId);
  }

  preview(run: Run | null, member: Member | null): void {
    const link = run?.host ? this.store.link(run.host) : undefined;
    const pane = link && member && member.state === 'alive' && member.paneId ? member.paneId : null;
    if (this.streaming && this.streaming !== link) this.streaming.preview(null);
    this.streaming = pane && link ? link : null;
    // The run by its id on the box, for the box to capture its panes every tick.
    const boxRun =
      run && link && run.id.startsWith(`${link.host.name}/`) ? run.id.slice(link.host.name.length + 1) : null;
    if (link) link.preview(pane, member?.tmuxServer ?? null, boxRun);
    this.local?.preview?.(link ? null : run, link ? null : member);
  }

  lookOf(m: Member, run?: Run | null): PaneLook | undefined {
    if (!run?.host) return this.local?.lookOf(m, run);
    const view = this.store.link(run.host)?.pane;
    if (!view || view.pane !== m.paneId || view.server !== (m.tmuxServer ?? null)) return undefined;
    let look = this.made.get(view);
    if (!look) {
      look = { text: view.text, reading: REMOTE_READING, since: 0, movedAt: 0, prompt: null };
      this.made.set(view, look);
    }
    return look;
  }

  previewNote(run: Run | null): string | null {
    const link = run?.host ? this.store.link(run.host) : undefined;
    if (!link) return null;
    if (link.state.state !== 'ok') return `${link.host.name} is ${link.state.state}: its panes show once it is back`;
    if (!link.streamsPanes)
      return `${link.host.name} runs an older tower that does not stream its panes; Enter attaches over ssh`;
    return null;
  }

  dispose(): void {
    this.streaming?.preview(null);
    this.streaming = null;
    for (const off of this.offs.splice(0)) off();
  }

  private bump(): void {
    this.version++;
    for (const l of this.listeners) l();
  }
}
