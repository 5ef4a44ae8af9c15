/** What the live store must redo at its next frame; each step may mark more. */
import type { Team } from '../systems/types.js';

/** What is dirty: everything, discovery, all or some teams, some state dirs, or only assembly. */
export interface Dirty {
  full: boolean;
  rediscover: boolean;
  allTeams: boolean;
  teams: Set<string>;
  sources: Set<string>;
  /** Liveness or snapshot-level problems changed: re-assemble even with nothing re-read. */
  assemble: boolean;
}

/** Nothing to do. */
export const cleanDirty = (): Dirty => ({
  full: false,
  rediscover: false,
  allTeams: false,
  teams: new Set(),
  sources: new Set(),
  assemble: false,
});

/** Whether anything is dirty. */
export function hasWork(d: Dirty): boolean {
  return d.full || d.rediscover || d.allTeams || d.teams.size > 0 || d.sources.size > 0 || d.assemble;
}

/** The distinct team cwds, as one comparable string. */
export function teamCwds(teams: Map<string, Team>): string {
  return [...new Set([...teams.values()].map((t) => t.cwd ?? ''))].sort().join('\n');
}
