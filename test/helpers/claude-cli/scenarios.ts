/**
 * The scenarios that both the tests of the real Claude Code CLI (test/claude-code/) and the fixture
 * capture (scripts/capture-claude-fixtures.ts) drive: what the scripted model server answers (a
 * Bash request; a lead that starts a teammate whose Bash request needs the operator) and the steps
 * that bring the CLI to the dialog each asks with. What the CLI then draws and writes is compared
 * in the tests and kept by the capture, so both see the same CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClaudeRun } from './launch.js';
import { afterToolResult, lastUserText } from './messages-api.js';
import { waitFor } from '../wait-for.js';
import type { Turn, Usage } from './messages-api.js';

/** The question of the CLI's permission dialog. */
export const DIALOG_QUESTION = 'Do you want to proceed?';
/** What the lead is told to start its team. */
export const START_TEAM = 'start the team';
/** The teammate's task, as the lead hands it over. */
export const WORKER_TASK = 'WORKER TASK: write out-b.txt';
/**
 * What the lead's pane says over a request it draws for its teammate: `Bash command · from the
 * worker agent`, or `Bash · from the worker` when the teammate has a pane of its own.
 */
export const FROM_THE_WORKER = 'from the worker';

/**
 * A turn asking to run `echo <echo> > <file>` with Bash when the user's last message holds
 * `trigger` (never the turn after a tool ran: its result may quote the trigger). `say` is a text
 * block before the request; `echo` defaults to `x`.
 */
export function bashTurn(
  trigger: string,
  file: string,
  opts: { say?: string; echo?: string; usage?: Partial<Usage> } = {},
): Turn {
  return {
    when: (r) => !afterToolResult(r) && lastUserText(r).includes(trigger),
    content: [
      ...(opts.say === undefined ? [] : [{ type: 'text' as const, text: opts.say }]),
      {
        type: 'tool_use',
        name: 'Bash',
        input: { command: `echo ${opts.echo ?? 'x'} > ${file}`, description: `Writing ${file}` },
      },
    ],
    ...(opts.usage === undefined ? {} : { usage: opts.usage }),
  };
}

/**
 * A lead told START_TEAM starts the teammate `worker` with WORKER_TASK; the worker asks what
 * `workerAsks` says (by default to write out-b.txt with Bash).
 */
export function teamTurns(
  workerAsks: Turn = bashTurn('WORKER TASK', 'out-b.txt', { say: 'Worker step.', echo: 'b' }),
): Turn[] {
  return [
    {
      when: (r) => lastUserText(r).includes(START_TEAM),
      content: [
        { type: 'text', text: 'Starting a worker.' },
        {
          type: 'tool_use',
          name: 'Agent',
          input: { description: 'Write out-b', prompt: WORKER_TASK, name: 'worker' },
        },
      ],
    },
    workerAsks,
  ];
}

/**
 * A command taller than a 40-row pane: its head, then 60 harmless lines. The CLI draws its dialog
 * with a `↑ N more lines` row under the options; the head is out of sight.
 */
export const TALL_COMMAND = [
  'touch HEAD_RAN.txt',
  ...Array.from({ length: 60 }, (_, i) => `echo harmless line ${i}`),
].join('\n');

/**
 * A Bash request for `command` when the user's message says `trigger` (also when it carries the
 * result of a request denied just before: the CLI sends both in one message).
 */
export function bashRequest(trigger: string, command: string, description: string): Turn {
  return {
    when: (r) => lastUserText(r).includes(trigger),
    content: [{ type: 'tool_use', name: 'Bash', input: { command, description } }],
  };
}

/** At the CLI's input box, says `trigger` and waits for its permission dialog; the screen. */
export async function askForDialog(c: ClaudeRun, trigger: string): Promise<string> {
  await c.ready();
  await c.submit(trigger);
  return c.waitForScreen(DIALOG_QUESTION);
}

/** At the lead's input box, starts the team and waits for the worker's request in the lead's pane; the screen. */
export async function startTeam(c: ClaudeRun): Promise<string> {
  await c.ready();
  await c.submit(START_TEAM);
  return c.waitForScreen(FROM_THE_WORKER);
}

/** The folder of the one team the CLI made (`<claudeDir>/teams/<team>`). */
export function teamFolder(c: ClaudeRun): string {
  const teams = path.join(c.claudeDir, 'teams');
  const [team] = fs.readdirSync(teams);
  if (!team) throw new Error(`the CLI made no team folder in ${teams}`);
  return path.join(teams, team);
}

/**
 * The teammate's own pane (`--teammate-mode tmux`), as the team's config names it, once it says it
 * waits for the lead's approval; the pane and its screen.
 */
export async function workerWaiting(c: ClaudeRun): Promise<{ pane: string; screen: string }> {
  // The CLI writes the config as it goes: a read caught half way is tried again.
  const config = await waitFor(
    () =>
      JSON.parse(fs.readFileSync(path.join(teamFolder(c), 'config.json'), 'utf8')) as {
        members: { name: string; tmuxPaneId: string }[];
      },
    5000,
    { what: "the team's whole config.json" },
  );
  const pane = config.members.find((m) => m.name === 'worker')?.tmuxPaneId;
  if (!pane) throw new Error('the team config names no pane of the worker');
  return { pane, screen: await c.waitForScreen('Waiting for team lead approval', 20_000, pane) };
}
