/**
 * Which panes' looks each version of the captures changed: what lets the activity overlay lay over
 * again only the runs of the panes that printed. The previewed pane streams up to ten captures a
 * second; laying every run of the box over again for each cost a walk of every member and its
 * files per printed line.
 */

/** The versions remembered; a reader further behind lays every run over again. */
const KEEP = 64;

export class LookChanges {
  /** Oldest first: the version each change made, and the pane keys it touched (null: anything). */
  private log: { version: number; keys: ReadonlySet<string> | null }[] = [];

  /** Version `version` changed the looks of these panes (by paneKey), or anything (null). */
  note(version: number, keys: ReadonlySet<string> | null): void {
    this.log.push({ version, keys });
    if (this.log.length > KEEP) this.log.splice(0, this.log.length - KEEP);
  }

  /**
   * The pane keys changed after version `since` up to `now`; null when one of those changes may
   * have touched anything, or when they go back further than what is kept.
   */
  since(since: number, now: number): Set<string> | null {
    if (since === now) return new Set();
    const from = this.log.findIndex((c) => c.version === since + 1);
    if (from < 0 || this.log.at(-1)?.version !== now) return null;
    const out = new Set<string>();
    for (let i = from; i < this.log.length; i++) {
      const keys = (this.log[i] as { keys: ReadonlySet<string> | null }).keys;
      if (keys === null) return null;
      for (const k of keys) out.add(k);
    }
    return out;
  }
}
