/**
 * argv → subcommand. Each command module is imported lazily, so `tower status` never loads the UI.
 * Exit codes: 0 success, 1 failure or refusal, 2 bad usage, 3 checkpoint timeout.
 */
import { UsageError, parseArgv } from './cli-args.js';
import type { CommandSpec, OptionSpec, ProgramSpec } from './cli-args.js';
import { GLOBAL_OPTIONS } from './cli-options.js';
import type { AppContext, GlobalOptions } from './context.js';
import { createContext } from './context.js';
import { quietOnClosedOutput } from './closed-output.js';
import { ConfigError } from './config.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3 } as const;

const DRY_RUN: OptionSpec = { flags: '--dry-run', description: 'print the exact tmux commands and file writes, do nothing' };
const RUN_ARG = { name: 'run', description: 'run id or a unique prefix of one' };

function timeoutSeconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new UsageError(`--timeout must be a number of seconds above 0 and at most 86400 (a day), got "${v}"`);
  return n;
}

/**
 * A snapshot of a big machine grows the heap far enough for V8 to start marking it bit by bit, and
 * node finishes that marking before the process may exit: about 7 ms of `tower status` on 10,000
 * tasks spent on a heap about to be dropped. A command that reads once and exits turns that off (V8
 * still collects in full at the heap's limit); never the live screen, which would pause instead.
 */
async function oneShotHeap(): Promise<void> {
  (await import('node:v8')).setFlagsFromString('--no-incremental-marking');
}

type Runner = (ctx: AppContext, args: string[], opts: Record<string, unknown>) => Promise<number>;

/** A command: what the help says of it, and what it runs. */
interface Command extends CommandSpec {
  run: Runner;
}

const actions = () => import('./actions/commands.js');

const COMMANDS: readonly Command[] = [
  {
    name: 'status',
    description: 'print one snapshot of every run, then exit',
    options: [{ flags: '--json', description: 'print the snapshot as JSON (the contract of DESIGN.md)' }],
    run: async (ctx, _args, o) => {
      await oneShotHeap();
      return (await import('./commands/status.js')).statusCommand(ctx, { json: Boolean(o.json) });
    },
  },
  {
    name: 'grant',
    description: 'grant a pending gate',
    args: [RUN_ARG, { name: 'gate', description: 'gate id' }],
    options: [DRY_RUN, { flags: '--json', description: 'print the outcome as JSON' }],
    run: async (ctx, [runId, gate], o) => (await actions()).grantCommand(ctx, runId ?? '', gate ?? '', { json: Boolean(o.json) }),
  },
  {
    name: 'request',
    description: 'open a named checkpoint on a harness run, running its hook',
    args: [RUN_ARG, { name: 'name', description: 'checkpoint name ([A-Za-z0-9_.-]+)' }],
    options: [DRY_RUN, { flags: '--message <text>', description: 'why the run should pause' }],
    run: async (ctx, [runId, name], o) => (await actions()).requestCommand(ctx, runId ?? '', name ?? '', { message: o.message as string | undefined }),
  },
  {
    name: 'checkpoint',
    description: "run the checkpoint cycle against the lead's pane; exit 3 on timeout",
    args: [RUN_ARG],
    options: [DRY_RUN, { flags: '--timeout <seconds>', description: 'seconds to wait for the handoff', parse: timeoutSeconds }],
    run: async (ctx, [runId], o) => (await actions()).checkpointCommand(ctx, runId ?? '', { timeoutSec: o.timeout as number | undefined }),
  },
  {
    name: 'rehydrate',
    description: 'type /clear, then the rehydrate command, then clear the signal',
    args: [RUN_ARG],
    options: [DRY_RUN],
    run: async (ctx, [runId]) => (await actions()).rehydrateCommand(ctx, runId ?? ''),
  },
  {
    name: 'terminate',
    description: 'force-terminate live teammates (never the lead unless named)',
    args: [RUN_ARG],
    options: [DRY_RUN, { flags: '--member <name>', description: 'a member to terminate (repeatable)', repeatable: true }],
    run: async (ctx, [runId], o) => (await actions()).terminateCommand(ctx, runId ?? '', { members: (o.member as string[] | undefined) ?? [] }),
  },
  {
    name: 'watch',
    description: 'headless supervisor: print events as JSON lines',
    options: [DRY_RUN, { flags: '--auto-checkpoint', description: 'run the checkpoint → clear → rehydrate cycle whenever a signal appears' }],
    run: async (ctx, _args, o) => (await import('./actions/watch.js')).watchCommand(ctx, { autoCheckpoint: Boolean(o.autoCheckpoint) }),
  },
  {
    name: 'demo',
    description: 'build a sandbox of every system with fake agents and open the control room on it',
    options: [
      { flags: '--no-ui', description: 'build the sandbox, print how to point tower at it, and exit' },
      { flags: '--dir <dir>', description: 'where to build the sandbox (default a new temp dir)' },
    ],
    run: async (ctx, _args, o) => (await import('./demo/command.js')).demoCommand(ctx, { ui: o.ui !== false, dir: o.dir as string | undefined }),
  },
  {
    // The far side of a host: streams this box's snapshot over stdin/stdout (see src/remote/serve.ts).
    name: 'serve',
    description: 'stream this box to another tower over ssh (JSON lines on stdin/stdout)',
    options: [{ flags: '--stdio', description: 'speak the protocol on stdin and stdout' }],
    hidden: true,
    run: async (ctx) => (await import('./remote/serve.js')).serveStdio(ctx),
  },
];

const PROGRAM: ProgramSpec = {
  name: 'tower',
  description: 'A terminal control room for agent teams running in tmux',
  version: '0.1.0',
  globalOptions: GLOBAL_OPTIONS,
  commands: COMMANDS,
};

const controlRoom: Runner = async (ctx) => (await import('./ui/main.js')).runControlRoom(ctx);

/** Runs tower with argv (without node and script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  quietOnClosedOutput();
  let parsed;
  try {
    parsed = parseArgv(PROGRAM, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`tower: ${err.message}\n(tower --help shows the commands)\n`);
    return EXIT.usage;
  }
  if (parsed.kind !== 'run') {
    process.stdout.write(parsed.text);
    return EXIT.ok;
  }
  let ctx: AppContext;
  try {
    ctx = await createContext(parsed.opts as GlobalOptions);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`tower: ${err.message}\n`);
    return EXIT.usage;
  }
  const runner = COMMANDS.find((c) => c.name === parsed.command)?.run ?? controlRoom;
  return runner(ctx, parsed.args, parsed.opts);
}
