/**
 * The checkpoint cycle on a lead whose CLI does not run a system's own commands (tina's skills, a
 * team's `/checkpoint` and `/rehydrate` are Claude Code commands): it goes through the cycle with
 * its own (its module's `cycle`): `tower checkpoint` types its `compact` (Codex's `/compact`, which
 * has the model write a handoff summary the conversation goes on from), `tower rehydrate` its
 * `clear` (Codex's `/new`). Each is typed through the input guard, the CLI's way, and taken only
 * once the CLI's screen shows it took (`ways.cycle`). A CLI without such a command, or whose screen
 * tower cannot confirm it on, is refused, naming why. The running of it is own-cycle-run.ts, loaded
 * when it runs.
 */
import { agentCli } from '../agents/registry.js';
import type { AgentCli } from '../agents/types.js';
import type { LeadTarget } from '../kit/detail.js';
import type { Effect } from '../kit/types.js';
import { onServer } from './pane-client.js';

/** The lead's CLI when it takes the cycle with its own commands rather than the system's, or null. */
export function ownCycleOf(lead: LeadTarget): AgentCli | null {
  const cli = agentCli(lead.agent);
  return cli && !cli.cycle.systemCommands ? cli : null;
}

/** The command of a step of the CLI's own cycle, or a refusal naming the CLI, the lead and why. */
export function ownCommand(
  cli: AgentCli,
  lead: LeadTarget,
  step: 'clear' | 'compact',
  system: string,
): { command: string } | { refusal: string } {
  const c = cli.cycle[step];
  if ('command' in c) return c;
  return {
    refusal: `lead ${lead.name} runs ${cli.label}, which runs no ${system} commands, and its own: ${c.refusal}`,
  };
}

/** The dry run's line for typing `text` the CLI's way (a paste or keys, as its module says). */
export function ownLineEffect(cli: AgentCli, lead: LeadTarget, text: string): Effect {
  return {
    kind: 'tmux',
    text: `type ${JSON.stringify(text)} into ${lead.target}${onServer(lead.server)} the way ${cli.label} takes a line, and submit it`,
  };
}
