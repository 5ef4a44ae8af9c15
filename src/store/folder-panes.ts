/**
 * The panes of a run whose system names no agent or pane in its files (the harness, SAGE, dotagent):
 * a pane of tower's own server that works in the run's folder is where the run is driven (its
 * runner, its agent), as FORMATS.md's dotagent rule already takes "a tmux pane sits in the project"
 * to mean the workflow is live. Each becomes a member of the run, so it is previewed, captured and
 * attached to as any member is, with the same identity: its server (tower's own only), its pane id,
 * and its first process and that process's start, checked again before every effect
 * (docs/pane-identity.md).
 */
import path from 'node:path';
import type { Member, Run } from '../model/model.js';
import { systemOf } from '../systems/registry.js';
import type { PaneInfo } from '../tmux/client.js';
import type { PaneIndex } from './pane-server.js';
import { startsOf } from './pane-server.js';

/** The most panes taken for one run: a folder many panes work in is named by its first few. */
export const MAX_FOLDER_PANES = 4;
/** The role such a member shows: how it was found, not what the system calls it. */
export const FOLDER_PANE_ROLE = 'pane in its folder';

/** Whether `dir` is `root` or inside it. */
function within(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Whether a run takes the panes in its folder as its seats: its system names no agent or pane in its files. */
export function seatsByFolder(run: Run): boolean {
  const m = systemOf(run.system);
  return run.members.length === 0 && run.root !== null && !m.teams && !m.mergesTeams;
}

/** The panes of tower's own server that runs' and teams' members name (a swarm's `%N` is another server's). */
export function claimedPanes(
  reads: Iterable<readonly [string, { run: { members: readonly Member[] } }]>,
  teams: Iterable<readonly [string, { members: readonly { paneId: string | null; tmuxServer?: string | null }[] }]>,
): Set<string> {
  const claimed = new Set<string>();
  for (const [, read] of reads) for (const m of read.run.members) if (m.paneId && !m.tmuxServer) claimed.add(m.paneId);
  for (const [, team] of teams) for (const m of team.members) if (m.paneId && !m.tmuxServer) claimed.add(m.paneId);
  return claimed;
}

/** The name a found pane goes by: its session, or `session:window.pane` when the session has several. */
function nameOf(p: PaneInfo, all: readonly PaneInfo[]): string {
  const shared = all.filter((o) => o.session === p.session).length > 1;
  return shared ? `${p.session}:${p.window}.${p.index}` : p.session;
}

/**
 * The live panes of tower's own server that work in `root` (or below it), as members, oldest session
 * first; [] when there is no server to ask. Swarm servers are Claude Code teams' and never searched.
 */
export function folderPanes(root: string, index: PaneIndex | null): Member[] {
  if (index === null || ('own' in index && index.own === false)) return [];
  const found: PaneInfo[] = [];
  // A pane a run or a team names as its member's is that member's: never a second run's seat too.
  for (const p of index.byId.values())
    if (!p.dead && within(p.cwd, root) && !index.claimed?.has(p.paneId)) found.push(p);
  found.sort((a, b) => a.session.localeCompare(b.session) || a.window - b.window || a.index - b.index);
  const taken = found.slice(0, MAX_FOLDER_PANES);
  const starts = startsOf(index);
  return taken.map((p) => ({
    name: nameOf(p, taken),
    role: FOLDER_PANE_ROLE,
    model: '',
    paneId: p.paneId,
    state: 'alive',
    // The run's one seat: terminating a run's teammates spares it, and it is the preview's default.
    lead: true,
    cwd: p.cwd,
    paneProcess: { pid: p.pid, start: starts.startOf(p.pid) },
  }));
}
