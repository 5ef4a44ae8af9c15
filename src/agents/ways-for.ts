/**
 * The reading and typing of the CLI an action's plan saw in the pane: loaded when the action runs, never on a
 * start path.
 */
import type { AgentId } from '../model/values.js';
import { answeringCli, waysOf } from './registry.js';
import type { AgentWays } from './types.js';

/** The ways of `agent`'s CLI; Claude Code's when the plan saw none (or one tower does not know). */
export function waysFor(agent: AgentId | undefined): Promise<AgentWays> {
  return waysOf(answeringCli(agent));
}
