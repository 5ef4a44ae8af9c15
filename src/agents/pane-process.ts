/**
 * Which agent CLI a captured pane runs: its foreground command first (`claude`), else the argv of
 * its first process and that process's children (a node launcher: tmux says `node`), read from
 * /proc. Bounded: a few processes, each argv cut short; remembered per pane process and command, so
 * a pane is looked into once until what runs in it changes.
 */
import { argvOf, childrenOf } from './proc.js';
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
