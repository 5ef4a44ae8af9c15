/** Whether the screen is still reading its first snapshot, and whether it is handed to tmux attach. */

export interface SessionState {
  loading: boolean;
  /** While loading: what is being read, with its size ("10,000 Claude teams"), for the runs list. */
  reading: string;
  suspended: boolean;
  /** Notifications muted by the operator (bell, desktop, command; the title still counts). */
  muted: boolean;
  /** What rules answered for the operator since tower started (`12 allowed by rule`), or ''. */
  byRule: string;
  /** The newest request a rule denied, per member (`<run id>/<member>`): the rule and when. */
  deniedByRule: ReadonlyMap<string, DeniedByRule>;
}

/** A member's request a rule denied: which rule, and when (epoch ms). */
export interface DeniedByRule {
  rule: string;
  at: number;
}

/** A tiny store the terminal session writes and the app reads. */
export interface SessionStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): SessionState;
  set(patch: Partial<SessionState>): void;
}

/** A session store starting at `initial`. */
export function createSessionStore(initial: Partial<SessionState> = {}): SessionStore {
  let state: SessionState = {
    loading: false,
    reading: '',
    suspended: false,
    muted: false,
    byRule: '',
    deniedByRule: new Map(),
    ...initial,
  };
  const listeners = new Set<() => void>();
  return {
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSnapshot: () => state,
    set(patch) {
      const next = { ...state, ...patch };
      if (
        next.loading === state.loading &&
        next.reading === state.reading &&
        next.suspended === state.suspended &&
        next.muted === state.muted &&
        next.byRule === state.byRule &&
        next.deniedByRule === state.deniedByRule
      )
        return;
      state = next;
      for (const l of listeners) l();
    },
  };
}
