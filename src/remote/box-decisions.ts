/**
 * A box's decisions by rule as this side hears them (checked and cleaned at the door): each id once,
 * whatever the link does. A serve started again after the link came back tells again what it
 * decides again (a request still held, a dry run asked as before), with the same id: not shown twice.
 */
import type { RuleDecision } from './protocol.js';

/** Ids remembered per box (the oldest go): far more than a link's backlog or a screen's rows. */
const MAX_SEEN = 5000;
/** The newest decisions kept for a listener that comes later (the screen follows rules after its first frame). */
const KEEP = 50;

/** One box's decisions, each told to the listeners once. */
export class BoxDecisions {
  private readonly seen = new Set<string>();
  private readonly kept: RuleDecision[] = [];
  private readonly listeners = new Set<(d: RuleDecision) => void>();

  /** Called with the newest decisions so far, then each one not told before. */
  subscribe(listener: (d: RuleDecision) => void): () => void {
    for (const d of this.kept) listener(d);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A decision from the box; told on unless its id was told already. */
  received(d: RuleDecision): void {
    if (this.seen.has(d.id)) return;
    this.seen.add(d.id);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.values().next().value!);
    this.kept.push(d);
    if (this.kept.length > KEEP) this.kept.shift();
    for (const l of this.listeners) l(d);
  }
}
