/**
 * Agents of a project, on the store's side: which panes runs already have, and the agents outside
 * every run (src/agents/lone-panes.ts) as reads the assembly takes like a state directory's, keyed
 * `agents:<folder>`. The agent modules that tell a pane's CLI load lazily (`loadLoneAgents`), so the
 * start paths carry none of them.
 */
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

/**
 * The lister, once the agent modules are loaded. A pane whose `%N` a run names on another server (a
 * swarm) is left out too: an agent is listed once at most, never twice.
 */
export async function loadLoneAgents(): Promise<LoneAgentLister> {
  const { loneAgentRuns } = await import('../agents/pane-process.js');
  return (panes, reads, teams) => {
    if (!panes || panes.length === 0) return [];
    const taken = new Set<string>();
    const add = (members: Members) => {
      for (const m of members) if (m.paneId && !m.tmuxServer) taken.add(m.paneId);
    };
    for (const [, read] of reads) add(read.run.members);
    for (const [, team] of teams) add(team.members);
    return loneAgentRuns(panes, taken).map((run) => {
      const root = run.root as string;
      return [`agents:${root}`, { source: { system: 'agents', root, stateDir: root }, run, teamNames: [] }];
    });
  };
}
