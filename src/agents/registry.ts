/**
 * Every agent CLI tower knows, in one list. The store, the actions and the door loop over it and
 * never name a CLI; adding one is a folder under src/agents/ with its module, one line here and its
 * section in docs/agents.md. Only the light descriptions are loaded here: a module's reading and
 * typing load when a pane runs that CLI (`waysOf`).
 */
import type { AgentId } from '../model/values.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { geminiCli } from './gemini-cli/index.js';
import { opencode } from './opencode/index.js';
import type { AgentCli, AgentWays, PaneProcess } from './types.js';

export const AGENT_CLIS: readonly AgentCli[] = [claudeCode, codex, opencode, geminiCli];

/**
 * Every answer some registered CLI takes (`answerKeys`, all of them): what a box's prompt's options
 * and a box's answer are held to at the door. Strict and bounded: a handful of short words.
 */
export const ANSWER_KEYS: ReadonlySet<string> = new Set(AGENT_CLIS.flatMap((a) => a.answerKeys));

/** The module whose dialogs a pane's answer is read by: its CLI's, Claude Code's when it said none. */
export function answeringCli(id: AgentId | undefined): AgentCli {
  return agentCli(id) ?? claudeCode;
}

/** The module of a CLI by its id, or null (`unknown`, or a CLI of a newer tower). */
export function agentCli(id: AgentId | undefined): AgentCli | null {
  return AGENT_CLIS.find((a) => a.id === id) ?? null;
}

/**
 * The CLI a pane runs: its current command first, then the argv of its processes (a launcher such
 * as `node …/codex.js` shows as `node`). Null: a shell, or a CLI tower does not know.
 */
export function agentOfPane(p: PaneProcess, clis: readonly AgentCli[] = AGENT_CLIS): AgentCli | null {
  const byCommand = clis.find((a) => a.recognise.commands.includes(p.command));
  if (byCommand) return byCommand;
  for (const argv of p.argv) {
    const hit = clis.find((a) => a.recognise.argv(argv));
    if (hit) return hit;
  }
  return null;
}

const loaded = new Map<AgentId, Promise<AgentWays>>();

/** A CLI's reading and typing, loaded once on first use. */
export function waysOf(cli: AgentCli): Promise<AgentWays> {
  let ways = loaded.get(cli.id);
  if (!ways) {
    ways = cli.load();
    loaded.set(cli.id, ways);
  }
  return ways;
}
