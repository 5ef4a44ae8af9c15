/** Starts the demo's tmux sessions, one fake agent per pane, and reports the pane ids. */
import path from 'node:path';
import type { TmuxClient } from '../tmux/client.js';
import type { PaneSpec, SessionSpec } from './plan.js';
import { paneKey } from './plan.js';

/** How an agent is launched: the node binary and the built agent script. */
export interface AgentLauncher {
  node: string;
  script: string;
  /**
   * A folder of links to `node` named after the agent CLIs (`claude`, `codex`, `opencode`,
   * `gemini`): an agent that stands in for one runs as it, so tmux names its pane's command as the
   * real CLI's and tower reads it with that CLI's module. Absent: every agent runs as `node`.
   */
  programs?: string;
}

/** The program each role stands in for; roles not listed (the systems' runners) run as `node`. */
export const ROLE_PROGRAMS: Readonly<Record<string, string>> = {
  lead: 'claude',
  worker: 'claude',
  reviewer: 'claude',
  orchestrator: 'claude',
  codex: 'codex',
  opencode: 'opencode',
  gemini: 'gemini',
};

/** Quotes one word for the POSIX shell tmux runs pane commands with. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./:%@=+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The pane's shell command: `exec node demo-agent.js <role> --flag value...` (`node` by another name: AgentLauncher). */
export function agentCommand(agent: AgentLauncher, pane: PaneSpec): string {
  const program = Object.hasOwn(ROLE_PROGRAMS, pane.role) ? ROLE_PROGRAMS[pane.role] : undefined;
  const argv = [agent.programs && program ? path.join(agent.programs, program) : agent.node, agent.script, pane.role];
  for (const [key, value] of Object.entries(pane.flags)) {
    if (value === undefined || value === false) continue;
    argv.push(`--${key}`);
    if (value !== true) argv.push(String(value));
  }
  // exec: the agent itself is the pane's process, as a real agent CLI would be.
  return `exec ${argv.map(shellQuote).join(' ')}`;
}

/**
 * Creates every session with its panes (tiled) and returns `<session>/<member>` → pane id.
 * The first command starts the server without the user's tmux config, so the demo looks the same everywhere.
 */
export async function startSessions(
  tmux: TmuxClient,
  sessions: readonly SessionSpec[],
  agent: AgentLauncher,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  let serverStarted = false;
  for (const session of sessions) {
    const [head, ...rest] = session.panes;
    if (!head) continue;
    const noConfig = serverStarted ? [] : ['-f', '/dev/null'];
    const first = (
      await tmux.run([
        ...noConfig,
        'new-session',
        '-d',
        '-s',
        session.name,
        '-n',
        session.name,
        '-x',
        '200',
        '-y',
        '50',
        '-c',
        head.cwd,
        '-P',
        '-F',
        '#{pane_id}',
        agentCommand(agent, head),
      ])
    ).trim();
    serverStarted = true;
    ids.set(paneKey(session.name, head.member), first);
    await tmux.run(['select-pane', '-t', first, '-T', head.member]);
    for (const pane of rest) {
      const id = (
        await tmux.run([
          'split-window',
          '-d',
          '-t',
          first,
          '-c',
          pane.cwd,
          '-P',
          '-F',
          '#{pane_id}',
          agentCommand(agent, pane),
        ])
      ).trim();
      ids.set(paneKey(session.name, pane.member), id);
      await tmux.run(['select-pane', '-t', id, '-T', pane.member]);
      // Re-tile after each split so the next split has room.
      await tmux.run(['select-layout', '-t', first, 'tiled']);
    }
  }
  return ids;
}
