/**
 * Agents of a project, on the store's side: which panes runs already have, and the agents outside
 * every run (src/agents/lone-panes.ts) as reads the assembly takes like a state directory's, keyed
 * `agents:<folder>`. The agent modules that tell a pane's CLI load lazily (`loadLoneAgents`), so the
 * start paths carry none of them.
 */
import path from 'node:path';
import { seatsByFolder } from './folder-panes.js';
import type { Team } from '../systems/types.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SourceRead } from './readers.js';

/** The reads of agents outside every run, from the panes of tower's server. */
export type LoneAgentLister = (
  panes: readonly PaneInfo[] | null,
  reads: Iterable<readonly [string, SourceRead]>,
  teams: Iterable<readonly [string, Team]>,
) => [string, SourceRead][];

type Members = readonly { paneId: string | null; tmuxServer?: string | null | undefined }[];

/** Whether `dir` is `root` or inside it. */
function within(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The lister, once the agent modules are loaded. A pane whose `%N` a run names on another server (a
 * swarm), and a pane in the folder of a run that takes its folder's panes as seats, are left out
 * too: an agent is listed once at most, never twice.
 */
export async function loadLoneAgents(): Promise<LoneAgentLister> {
  const { loneAgentRuns } = await import('../agents/pane-process.js');
  return (panes, reads, teams) => {
    if (!panes || panes.length === 0) return [];
    const taken = new Set<string>();
    const add = (members: Members) => {
      for (const m of members) if (m.paneId && !m.tmuxServer) taken.add(m.paneId);
    };
    const seatRoots: string[] = [];
    for (const [, read] of reads) {
      add(read.run.members);
      if (seatsByFolder(read.run)) seatRoots.push(read.run.root as string);
    }
    for (const [, team] of teams) add(team.members);
    const free = seatRoots.length === 0 ? panes : panes.filter((p) => !seatRoots.some((r) => within(p.cwd, r)));
    return loneAgentRuns(free, taken).map((run) => {
      const root = run.root as string;
      return [`agents:${root}`, { source: { system: 'agents', root, stateDir: root }, run, teamNames: [] }];
    });
  };
}
