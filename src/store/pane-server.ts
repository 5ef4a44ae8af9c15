/**
 * Which pane is a member's: its server, its `%N`, and evidence that it is this agent. Pane ids are
 * only unique within one server, a server numbers its panes from `%0` again when it starts, and a
 * Claude Code lead started outside tmux puts its teammates on a server of its own
 * (`claude-swarm-<leadPid>`): the same `%N` can be on tower's server and on swarm servers, and a
 * team file left from an earlier server names panes that are other agents' now.
 *
 * A team is tied to a server by its lead's recorded process: the server it runs in a pane of, or
 * the swarm server named after its pid. A team tied to tower's server is never moved to a swarm
 * server, nor the other way; a team tied to both is refused. Untied, a swarm server counts for a
 * run when its lead process or one of its panes works in the run's folder. Every pane that could be
 * the member's is then checked against the member (store/pane-evidence.ts): the one that fits is
 * the member's; none that fits makes the member `not-its-pane`; two that fit equally are refused,
 * naming both.
 */
import type { Member, MemberState } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import { contradiction, leadPlace, serverLabel, StartBook } from './pane-evidence.js';
import type { LeadPlace, ServerPanes } from './pane-evidence.js';
import type { LeadSeats } from './hook-leads.js';

/** One swarm server's panes, indexed. */
export interface SwarmIndex {
  name: string;
  leadPid: number;
  leadAlive: boolean;
  leadCwd: string | null;
  byId: Map<string, PaneInfo>;
  byPid?: Map<number, PaneInfo>;
}

/** The panes of one poll (tower's own server and the swarm servers), indexed for lookups. */
export interface PaneIndex {
  /** Tower's own server's panes (empty when it has none or is not running). */
  byId: Map<string, PaneInfo>;
  byPid?: Map<number, PaneInfo>;
  /** The first pane (lowest window, then pane index) of each session on tower's own server. */
  firstBySession: Map<string, PaneInfo>;
  /** Whether tower's own server answered (false: no server, yet a swarm server did). */
  own?: boolean;
  /** Claude Code's swarm servers that answered, with their panes. */
  swarms?: SwarmIndex[];
  /** The start of each pane's first process, read once per index. */
  starts?: StartBook;
  /** Where each Claude Code session's own hooks last ran (store/hook-leads.ts), for a lead with no pane. */
  leadSeats?: LeadSeats;
  /** The panes of tower's own server that a run or a team names as a member's (never a folder's seat). */
  claimed?: ReadonlySet<string>;
}

/** Where a pane is: its state, the swarm server holding it (undefined: tower's own), or why that cannot be told. */
export interface PaneWhere {
  state: MemberState;
  server?: string;
  /** The pane found, when it is the member's (its first process is what actions check again). */
  pane?: PaneInfo;
  /** Set when the server could not be told: the member's state is unknown and actions refuse. */
  unresolved?: string;
  /** Set with state `not-its-pane`: why the `%N` found is another agent's. */
  notItsPane?: string;
  /** A line for the run's problems. */
  problem?: string;
}

/** What ties a team to a server: its lead's process. `both`: tied to two, refused. */
export type TeamTie = { server: string | null; place: LeadPlace | null } | { both: string };

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

/** The index's start book (an index made by hand has none until asked). */
export function startsOf(index: PaneIndex): StartBook {
  return (index.starts ??= new StartBook());
}

/** Every server of the index, tower's first (when it answered), each with its panes by first process. */
export function serversOf(index: PaneIndex): ServerPanes[] {
  const byPid = (byId: Map<string, PaneInfo>) => new Map([...byId.values()].map((p) => [p.pid, p] as const));
  const out: ServerPanes[] = [];
  if (index.own !== false) out.push({ name: null, byId: index.byId, byPid: (index.byPid ??= byPid(index.byId)) });
  for (const s of index.swarms ?? []) out.push({ name: s.name, byId: s.byId, byPid: (s.byPid ??= byPid(s.byId)) });
  return out;
}

/**
 * The server a team's lead ties it to, or null when its lead recorded no process. The lead's
 * process in a pane of a server ties the team there; a swarm server named after its pid ties it to
 * that server; both at once is refused.
 */
export function teamTie(lead: Member, index: PaneIndex): TeamTie | null {
  const lp = lead.leadProcess;
  if (!lp) return null;
  const place = leadPlace(lead, serversOf(index), startsOf(index));
  const named = (index.swarms ?? []).find((s) => s.leadPid === lp.pid)?.name;
  if (place?.alive === true && place.server !== undefined) {
    if (named !== undefined && place.server !== named)
      return {
        both:
          `team ${lead.team ?? ''}: its lead's process ${lp.pid} runs in ${place.paneId} on ` +
          `${serverLabel(place.server)}, and ${named} is named after it: tied to both, refused`,
      };
    return { server: place.server, place };
  }
  if (named !== undefined) return { server: named, place };
  return place === null ? null : { server: null, place };
}

const UNKNOWN: PaneWhere = Object.freeze({ state: 'unknown' });
const DEAD: PaneWhere = Object.freeze({ state: 'dead' });

interface Candidate {
  server: string | null;
  pane: PaneInfo;
}

/**
 * Finds the member's pane for a run working in `root`. `tie` is what its team's lead ties the team
 * to (teamTie), when it recorded a process.
 */
export function locatePane(m: Member, root: string | null, index: PaneIndex | null, tie?: TeamTie | null): PaneWhere {
  if (index === null || !m.paneId) return UNKNOWN;
  const paneId = m.paneId;
  if (tie && 'both' in tie) return { state: 'unknown', unresolved: tie.both, problem: tie.both };
  const own = index.own === false ? undefined : index.byId.get(paneId);
  const swarms = index.swarms ?? [];
  const candidates: Candidate[] = [];
  const untied: string[] = [];
  let elsewhere: string[] = [];
  if (tie) {
    // The team's server is known: a %N on any other server is another team's.
    if (tie.server === null && own) candidates.push({ server: null, pane: own });
    for (const s of swarms) {
      const p = s.byId.get(paneId);
      if (p && s.name === tie.server) candidates.push({ server: s.name, pane: p });
    }
  } else {
    if (own) candidates.push({ server: null, pane: own });
    for (const s of swarms) {
      const p = s.byId.get(paneId);
      if (!p) continue;
      if (swarmTie(s, root) > 0) candidates.push({ server: s.name, pane: p });
      else untied.push(s.name);
    }
    // The run's own swarm server lacks the %N: tower's %N is checked like any other, and said so.
    if (own && candidates.length === 1)
      elsewhere = swarms.filter((s) => !s.byId.has(paneId) && swarmTie(s, root) > 0).map((s) => s.name);
  }
  const starts = startsOf(index);
  const place = tie && 'server' in tie ? tie.place : m.lead ? leadPlace(m, serversOf(index), starts) : null;
  const fits: Candidate[] = [];
  const reasons: string[] = [];
  for (const c of candidates) {
    const why = contradiction(m, c.pane, c.server, starts, m.lead ? place : null);
    if (why === null) fits.push(c);
    else reasons.push(why);
  }
  if (fits.length === 1) {
    const c = fits[0]!;
    // No evidence of where the member works, and the run's own swarm server lacks the %N: tower's
    // %N is the member's only if it works in the run's folder.
    if (c.server === null && elsewhere.length > 0 && !m.cwd && !within(c.pane.cwd, root)) {
      const why =
        `pane ${paneId} is not on ${elsewhere.join(', ')} (this run's Claude Code tmux ` +
        `server), and the ${paneId} on tower's own server works elsewhere`;
      return {
        state: 'unknown',
        unresolved: why,
        problem: `${why}; its liveness is unknown and actions on it are refused`,
      };
    }
    return c.server === null
      ? { state: stateOf(c.pane), pane: c.pane }
      : { state: stateOf(c.pane), server: c.server, pane: c.pane };
  }
  if (fits.length > 1) {
    const where = fits.map((c) => serverLabel(c.server)).join(' and ');
    const why = `pane ${paneId} is on ${where}, both fit ${m.name}, and nothing tells which is this member's`;
    return {
      state: 'unknown',
      unresolved: why,
      problem: `${why}; its liveness is unknown and actions on it are refused`,
    };
  }
  if (reasons.length > 0) {
    const because = [
      ...reasons,
      ...elsewhere.map((n) => `${paneId} is not on ${n} (this run's Claude Code tmux server)`),
    ].join('; ');
    return { state: 'not-its-pane', notItsPane: because, problem: `not its pane: ${because}` };
  }
  if (untied.length > 0) {
    const why =
      `pane ${paneId} is not on tower's tmux server but on ${untied.join(', ')}, and ` +
      `nothing ties ${untied.length === 1 ? 'that server' : 'those servers'} to ${root ?? 'this run'} ` +
      `(no lead process or pane working there)`;
    return { state: 'unknown', unresolved: why, problem: `${why}; its liveness is unknown` };
  }
  // No pane holds the %N where the team is: gone, when that server answered.
  const home = tie && 'server' in tie ? tie.server : null;
  return home === null && index.own === false ? UNKNOWN : DEAD;
}
