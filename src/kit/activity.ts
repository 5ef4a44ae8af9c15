/** The activity pane's store: actions push and update entries; the UI reads with useSyncExternalStore. */

/** One line of the activity pane: an action from the moment it is asked for until it ends. */
export interface ActivityEntry {
  id: number;
  /** ISO time the action started. */
  time: string;
  action: string;
  runId: string | null;
  target: string | null;
  status: 'running' | 'done' | 'refused' | 'failed' | 'cancelled' | 'timeout';
  /** What is happening or what happened, one line. */
  message: string;
  /** While waiting: elapsed and timeout in ms, and what it waits for. */
  progress?: { elapsedMs: number; timeoutMs: number; waitingFor: string } | undefined;
  /** Extra lines (hook output, per-pane results). */
  details?: string[] | undefined;
}

const MAX_ENTRIES = 200;

export class ActivityStore {
  private entries: readonly ActivityEntry[] = [];
  private listeners = new Set<() => void>();
  private nextId = 1;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Newest last; a new array only when something changed. */
  getSnapshot = (): readonly ActivityEntry[] => this.entries;

  /** Adds an entry and returns its id. */
  push(entry: Omit<ActivityEntry, 'id' | 'time'> & { time?: string }): number {
    const id = this.nextId++;
    const full: ActivityEntry = { time: new Date().toISOString(), ...entry, id };
    this.entries = [...this.entries, full].slice(-MAX_ENTRIES);
    this.emit();
    return id;
  }

  /** Changes an entry in place (a new object, so React sees it). */
  update(id: number, patch: Partial<Omit<ActivityEntry, 'id'>>): void {
    let changed = false;
    this.entries = this.entries.map((e) => {
      if (e.id !== id) return e;
      changed = true;
      return { ...e, ...patch };
    });
    if (changed) this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
