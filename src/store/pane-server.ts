/**
 * Which tmux server a member's `%N` is on. Pane ids are only unique within one server, and a
 * Claude Code lead started outside tmux puts its teammates on a server of its own
 * (`claude-swarm-<leadPid>`), so the same `%N` can be on tower's server and on a swarm server, or
 * on two swarm servers. A swarm server is tied to a run when its lead process works in the run's
 * directory (strongest), or when a pane of it does; a pane on tower's own server is tied when it
 * works there. The one best-tied server holding `%N` is the member's; a tie between two is
 * reported, never guessed. Only tower's own server holds a pane no tied swarm server competes for.
 */
import type { MemberState } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';

/** One swarm server's panes, indexed. */
export interface SwarmIndex {
  name: string;
  leadPid: number;
  leadAlive: boolean;
  leadCwd: string | null;
  byId: Map<string, PaneInfo>;
}

/** The panes of one poll (tower's own server and the swarm servers), indexed for lookups. */
export interface PaneIndex {
  /** Tower's own server's panes (empty when it has none or is not running). */
  byId: Map<string, PaneInfo>;
  /** The first pane (lowest window, then pane index) of each session on tower's own server. */
  firstBySession: Map<string, PaneInfo>;
  /** Whether tower's own server answered (false: no server, yet a swarm server did). */
  own?: boolean;
  /** Claude Code's swarm servers that answered, with their panes. */
  swarms?: SwarmIndex[];
}

/** Where a pane is: its state, the swarm server holding it (undefined: tower's own), or why that cannot be told. */
export interface PaneWhere {
  state: MemberState;
  server?: string;
  /** Set when the server could not be told: the member's state is unknown and actions refuse. */
  unresolved?: string;
  /** A line for the run's problems. */
  problem?: string;
}

/** Whether `dir` is `root` or inside it. */
function within(dir: string | null, root: string | null): boolean {
  if (!dir || !root) return false;
  const r = root.endsWith('/') ? root.slice(0, -1) : root;
  return dir === r || dir.startsWith(`${r}/`);
}

/** How strongly a swarm server belongs to a run: 2 its lead works there, 1 one of its panes does, 0 neither. */
export function swarmTie(s: SwarmIndex, root: string | null): number {
  if (s.leadAlive && within(s.leadCwd, root)) return 2;
  for (const p of s.byId.values()) if (within(p.cwd, root)) return 1;
  return 0;
}

function stateOf(p: PaneInfo): MemberState {
  return p.dead ? 'dead' : 'alive';
}

const UNKNOWN: PaneWhere = Object.freeze({ state: 'unknown' });
const DEAD: PaneWhere = Object.freeze({ state: 'dead' });
const ALIVE: PaneWhere = Object.freeze({ state: 'alive' });

/** Finds the server holding `paneId` for a run working in `root`. */
export function locatePane(paneId: string, root: string | null, index: PaneIndex | null): PaneWhere {
  if (index === null) return UNKNOWN;
  const own = index.own === false ? undefined : index.byId.get(paneId);
  // No swarm server (nearly always; 30,000 members on a box of 10,000 ended teams): tower's own
  // server says it all, with nothing made per member.
  if (!index.swarms?.length) return own ? (own.dead ? DEAD : ALIVE) : index.own === false ? UNKNOWN : DEAD;
  const hits = (index.swarms ?? []).filter((s) => s.byId.has(paneId)).map((s) => ({ s, tie: swarmTie(s, root) }));
  const tied = hits.filter((h) => h.tie > 0);
  if (tied.length === 0) {
    // The run's own swarm server lacks the %N: tower's %N belongs to the run only if it works there.
    const home =
      own && !within(own.cwd, root) ? (index.swarms ?? []).filter((s) => swarmTie(s, root) > 0).map((s) => s.name) : [];
    if (own && home.length > 0) {
      const why = `pane ${paneId} is not on ${home.join(', ')} (this run's Claude Code tmux server), and the ${paneId} on tower's own server works elsewhere`;
      return {
        state: 'unknown',
        unresolved: why,
        problem: `${why}; its liveness is unknown and actions on it are refused`,
      };
    }
    if (own) return { state: stateOf(own) };
    if (hits.length === 0) return { state: index.own === false ? 'unknown' : 'dead' };
    const names = hits.map((h) => h.s.name).join(', ');
    const why = `pane ${paneId} is not on tower's tmux server but on ${names}, and nothing ties ${hits.length === 1 ? 'that server' : 'those servers'} to ${root ?? 'this run'} (no lead process or pane working there)`;
    return { state: 'unknown', unresolved: why, problem: `${why}; its liveness is unknown` };
  }
  const best = Math.max(...tied.map((h) => h.tie));
  const top = tied.filter((h) => h.tie === best);
  // tower's own pane competes only with servers no better tied than a pane working in the run's directory.
  const ownTied = own !== undefined && best === 1 && within(own.cwd, root);
  if (top.length === 1 && !ownTied) {
    const { s } = top[0]!;
    return { state: stateOf(s.byId.get(paneId)!), server: s.name };
  }
  const where = [...(ownTied ? ["tower's own server"] : []), ...top.map((h) => h.s.name)].join(' and ');
  const why = `pane ${paneId} is on ${where}, and nothing tells which is this member's`;
  return {
    state: 'unknown',
    unresolved: why,
    problem: `${why}; its liveness is unknown and actions on it are refused`,
  };
}
