/**
 * Which agent CLI a captured pane runs: its foreground command first (`claude`), else the argv of
 * its first process and that process's children (a node launcher: tmux says `node`), read from
 * /proc. Bounded: a few processes, each argv cut short; remembered per pane process and command, so
 * a pane is looked into once until what runs in it changes. Also the panes outside every run that
 * run a CLI tower knows, as agents of their projects (`loneAgentRuns`).
 */
import path from 'node:path';
import { argvOf, childrenOf } from './proc.js';
import { emptyRun } from '../model/model.js';
import type { Member, Run } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { AgentId } from '../model/values.js';
import { agentOfPane, AGENT_CLIS } from './registry.js';

export { waysOf } from './registry.js';
export { AgentSources } from './state-sources.js';
import type { AgentCli } from './types.js';

/** Processes that mean "no agent here, a shell". */
const SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'fish', 'ksh', 'tcsh', 'csh', 'nu', 'login']);
/** Processes looked at per pane: its first and its children's first few. */
const MAX_PROCESSES = 8;
/** Panes remembered (the oldest goes first). */
const MAX_REMEMBERED = 5000;

const remembered = new Map<string, AgentCli | null>();

/** The argv of a pane's first process and its descendants, breadth first, at most MAX_PROCESSES. */
export function paneArgv(pid: number): string[][] {
  const out: string[][] = [];
  const queue = [pid];
  while (queue.length > 0 && out.length < MAX_PROCESSES) {
    const p = queue.shift()!;
    const argv = argvOf(p);
    if (argv) out.push(argv);
    queue.push(...childrenOf(p));
  }
  return out;
}

/**
 * The agent a pane runs: a module, `unknown` (neither a shell nor a CLI tower knows), or null (a
 * shell: no agent there).
 */
export function paneAgent(
  command: string,
  pid: number | null | undefined,
): { cli: AgentCli | null; id: AgentId } | null {
  const byCommand = agentOfPane({ command, argv: [] });
  if (byCommand) return { cli: byCommand, id: byCommand.id };
  if (SHELLS.has(command.replace(/^-/, ''))) return null;
  if (!pid) return { cli: null, id: 'unknown' };
  const key = `${pid}:${command}`;
  let cli = remembered.get(key);
  if (cli === undefined) {
    cli = agentOfPane({ command, argv: paneArgv(pid) }, AGENT_CLIS);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, cli);
  }
  return { cli, id: cli?.id ?? 'unknown' };
}

// ---- agents of a project: a CLI's pane outside every run, listed as a run of its folder ----

/** Panes looked at per listing: past this, the rest are left out (a box of panes is read in bounded time). */
const MAX_PANES = 2000;
/** The most characters of a folder's name shown as the run's name. */
const MAX_NAME_CHARS = 120;

/** One run per folder holding agent panes that are not in `taken` (pane ids of tower's server that runs have). */
export function loneAgentRuns(panes: readonly PaneInfo[], taken: ReadonlySet<string>): Run[] {
  const byFolder = new Map<string, Member[]>();
  for (const p of panes.slice(0, MAX_PANES)) {
    if (p.dead || taken.has(p.paneId) || !p.cwd.startsWith('/')) continue;
    const cli = paneAgent(p.command, p.pid)?.cli;
    if (!cli || cli.listsItself) continue;
    let members = byFolder.get(p.cwd);
    if (!members) byFolder.set(p.cwd, (members = []));
    // Each is its own lead: nothing above it in the run types to it.
    members.push({ name: cli.id, role: 'agent', model: '', paneId: p.paneId, state: 'alive', lead: true, cwd: p.cwd });
  }
  const runs: Run[] = [];
  for (const [folder, members] of byFolder) {
    const run = emptyRun(
      'agents',
      sanitizeLine(path.basename(folder) || folder).slice(0, MAX_NAME_CHARS),
      folder,
      null,
    );
    // Idle until its members' activity, laid over from their sources, says more.
    run.status = 'idle';
    run.members = members;
    runs.push(run);
  }
  return runs;
}
