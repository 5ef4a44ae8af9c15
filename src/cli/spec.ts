/**
 * tower's command line as data: its commands, their arguments and options, the exit codes. The
 * full command line (cli.ts) and the one-shot `tower status` (status-main.ts) parse argv against it.
 */
import { UsageError } from './args.js';
import type { CommandSpec, OptionSpec, ProgramSpec } from './args.js';
import { GLOBAL_OPTIONS } from './options.js';

/** Exit codes: 0 success, 1 failure or refusal, 2 bad usage, 3 checkpoint timeout. */
export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3 } as const;

const DRY_RUN: OptionSpec = {
  flags: '--dry-run',
  description: 'print the exact tmux commands and file writes, do nothing',
};
const RUN_ARG = { name: 'run', description: 'run id or a unique prefix of one' };

function timeoutSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400)
    throw new UsageError(`--timeout must be a number of seconds above 0 and at most 86400 (a day), got "${v}"`);
  return n;
}

/** tower's commands: what the help says of each (what each runs is in cli.ts). */
export const COMMANDS = [
  {
    name: 'status',
    description: 'print one snapshot of every run, then exit',
    options: [
      {
        flags: '--json',
        description: 'print the snapshot as JSON (one line when piped; its shape: docs/status-json.md)',
      },
    ],
    // It only reads: every global but --readonly, which would refuse nothing.
    globals: ['root', 'claude-dir', 'socket-name', 'socket-path', 'config', 'no-color', 'host', 'no-local', 'demo'],
  },
  {
    name: 'grant',
    description: 'grant a pending gate',
    args: [RUN_ARG, { name: 'gate', description: 'gate id' }],
    options: [DRY_RUN, { flags: '--json', description: 'print the outcome as JSON' }],
  },
  {
    name: 'request',
    description: 'open a named checkpoint on a harness run, running its hook',
    args: [RUN_ARG, { name: 'name', description: 'checkpoint name ([A-Za-z0-9_.-]+)' }],
    options: [DRY_RUN, { flags: '--message <text>', description: 'why the run should pause' }],
  },
  {
    name: 'checkpoint',
    description: "run the checkpoint cycle against the lead's pane; exit 3 on timeout",
    args: [RUN_ARG],
    options: [
      DRY_RUN,
      { flags: '--timeout <seconds>', description: 'seconds to wait for the handoff', parse: timeoutSeconds },
    ],
  },
  {
    name: 'rehydrate',
    description: 'type /clear, then the rehydrate command, then clear the signal',
    args: [RUN_ARG],
    options: [DRY_RUN],
  },
  {
    name: 'terminate',
    description: 'force-terminate live teammates (never the lead unless named)',
    args: [RUN_ARG],
    options: [
      DRY_RUN,
      {
        flags: '--member <name>',
        description: 'a member to terminate: its name, TEAM/NAME or pane id (%3) (repeatable)',
        repeatable: true,
      },
    ],
  },
  {
    name: 'answer',
    description:
      "answer the permission prompt or question a member's pane shows now (its option number, y / n, or another answer its CLI takes)",
    args: [
      RUN_ARG,
      {
        name: 'choice',
        description: 'the option to type: 1-9, y / n, or another answer its CLI takes (Codex: p, esc)',
      },
    ],
    options: [
      DRY_RUN,
      {
        flags: '--member <name>',
        description: 'the member whose pane shows the prompt: its name, TEAM/NAME or pane id (%3)',
      },
      {
        flags: '--request <id>',
        description:
          "the permission request held by tower's hook to answer, as tower status shows it " +
          '(<epoch>-<pid>:<hash>); needed when the pane has more than one held',
      },
    ],
  },
  {
    name: 'send',
    description:
      "type a line into a member's pane (the lead's by default) and submit it; refused while the pane shows a prompt",
    args: [RUN_ARG, { name: 'text', description: 'the line to type' }],
    options: [
      DRY_RUN,
      {
        flags: '--member <name>',
        description: "the member to type to: its name, TEAM/NAME or pane id (%3); default the working team's lead",
      },
    ],
  },
  {
    name: 'hooks',
    description:
      "add (install), remove (uninstall) or look at (status) tower's hook entries in a Claude Code " +
      'settings file you name',
    args: [{ name: 'verb', description: 'install, uninstall or status' }],
    // A settings file on this box: never another box's, nor the demo's.
    globals: ['root', 'claude-dir', 'socket-name', 'socket-path', 'config', 'no-color', 'readonly'],
    options: [
      DRY_RUN,
      {
        flags: '--settings <file>',
        description:
          "the settings file: ~/.claude/settings.json or a project's .claude/settings.json (status: default the first)",
      },
      {
        flags: '--hold-permissions <seconds>',
        description:
          'install: hold each permission request open up to this long (0-300, default 0: off) so ' +
          'tower answer can allow or deny it through the hook; with no answer in time the agent shows its own dialog',
      },
    ],
  },
  {
    name: 'rules',
    description:
      'say what each rule answering held permission requests means (check), or which rule decides a ' +
      'request and why (test)',
    args: [{ name: 'verb', description: 'check or test' }],
    options: [
      {
        flags: '--rules <file>',
        description: "the rules file (default the config's rulesFile, else rules.json beside it)",
      },
      {
        flags: '--request <json>',
        description: "test: a request as Claude Code's PermissionRequest JSON (tool_name, tool_input, cwd), or @FILE",
      },
      { flags: '--held <id>', description: 'test: a request held now by its id (<epoch>-<pid>)' },
      { flags: '--run <run>', description: 'test --request: the run it comes from (for rules naming a place)' },
      { flags: '--member <name>', description: 'test --request: the member of that run (default its lead)' },
    ],
  },
  {
    name: 'watch',
    description: 'headless supervisor: print events as JSON lines',
    options: [
      DRY_RUN,
      {
        flags: '--auto-checkpoint',
        description: 'run the checkpoint → clear → rehydrate cycle whenever a signal appears',
      },
    ],
  },
  {
    name: 'demo',
    description:
      'build a sandbox of every system with fake agents on a tmux server of its own and open the control room on it',
    // The demo makes its own roots, Claude dir and server: only a server name, the config's keys and look.
    globals: ['socket-name', 'config', 'no-color', 'readonly'],
    options: [
      { flags: '--no-ui', description: 'build the sandbox, print how to point tower at it, and exit' },
      { flags: '--dir <dir>', description: 'where to build the sandbox (default a new temp dir)' },
    ],
  },
  {
    // The far side of a host: streams this box's snapshot over stdin/stdout (see src/remote/serve.ts).
    name: 'serve',
    description: 'stream this box to another tower over ssh (JSON lines on stdin/stdout)',
    options: [{ flags: '--stdio', description: 'speak the protocol on stdin and stdout' }],
    hidden: true,
  },
] as const satisfies readonly CommandSpec[];

/** A command's name. */
export type CommandName = (typeof COMMANDS)[number]['name'];

/** The command line: its name, its options and its commands. */
export const PROGRAM: ProgramSpec = {
  name: 'tower',
  description: 'A terminal control room for agent teams running in tmux',
  version: '0.1.0',
  globalOptions: GLOBAL_OPTIONS,
  commands: COMMANDS,
};
