/**
 * argv → subcommand. Each command module is imported lazily, so `tower status` never loads the UI.
 * Exit codes: 0 success, 1 failure or refusal, 2 bad usage, 3 checkpoint timeout.
 */
import { Command, CommanderError } from 'commander';
import type { AppContext, GlobalOptions } from './context.js';
import { createContext } from './context.js';
import { quietOnClosedOutput } from './closed-output.js';
import { ConfigError } from './config.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3 } as const;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function addGlobalOptions(cmd: Command): Command {
  return cmd
    .option('--root <dir>', 'a project root to watch (repeatable)', collect)
    .option('--claude-dir <dir>', 'the Claude Code config dir (default $CLAUDE_CONFIG_DIR or ~/.claude)')
    .option('-L, --socket-name <name>', 'tmux socket name')
    .option('-S, --socket-path <path>', 'tmux socket path')
    .option('--config <file>', 'config file (default ~/.config/tower/config.json)')
    .option('--no-color', 'no colour (NO_COLOR is honoured too)')
    .option('--readonly', 'refuse every action')
    .option('--host <name|dest>', 'another build box to show, reached over ssh (repeatable)', collect)
    .option('--no-local', "leave this box's own runs out (only the hosts)");
}

function addActionOptions(cmd: Command): Command {
  return cmd.option('--dry-run', 'print the exact tmux commands and file writes, do nothing');
}

/** Runs tower with argv (without node and script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  quietOnClosedOutput();
  let code: number = EXIT.ok;
  const program = new Command('tower');
  program
    .description('A terminal control room for agent teams running in tmux')
    .version('0.1.0', '-V, --version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) })
    .showHelpAfterError('(tower --help shows the commands)');
  addGlobalOptions(program);

  const run = (fn: (ctx: AppContext) => Promise<number>) => async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const opts = cmd.optsWithGlobals() as GlobalOptions;
    let ctx: AppContext;
    try {
      ctx = await createContext(opts);
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`tower: ${err.message}\n`);
        code = EXIT.usage;
        return;
      }
      throw err;
    }
    code = await fn(ctx);
  };

  program.action(
    run(async (ctx) => {
      const { runControlRoom } = await import('./ui/main.js');
      return runControlRoom(ctx);
    }),
  );

  addGlobalOptions(program.command('status'))
    .description('print one snapshot of every run, then exit')
    .option('--json', 'print the snapshot as JSON (the contract of DESIGN.md)')
    .action(async (o: { json?: boolean }, cmd: Command) =>
      run(async (ctx) => (await import('./commands/status.js')).statusCommand(ctx, { json: Boolean(o.json) }))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('grant')))
    .description('grant a pending gate')
    .argument('<run>', 'run id or a unique prefix of one')
    .argument('<gate>', 'gate id')
    .option('--json', 'print the outcome as JSON')
    .action(async (runId: string, gate: string, o: { json?: boolean }, cmd: Command) =>
      run(async (ctx) => (await import('./actions/commands.js')).grantCommand(ctx, runId, gate, { json: Boolean(o.json) }))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('request')))
    .description('open a named checkpoint on a harness run, running its hook')
    .argument('<run>', 'run id or a unique prefix of one')
    .argument('<name>', 'checkpoint name ([A-Za-z0-9_.-]+)')
    .option('--message <text>', 'why the run should pause')
    .action(async (runId: string, name: string, o: { message?: string }, cmd: Command) =>
      run(async (ctx) => (await import('./actions/commands.js')).requestCommand(ctx, runId, name, { message: o.message }))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('checkpoint')))
    .description("run the checkpoint cycle against the lead's pane; exit 3 on timeout")
    .argument('<run>', 'run id or a unique prefix of one')
    .option('--timeout <seconds>', 'seconds to wait for the handoff', (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new CommanderError(EXIT.usage, 'tower.usage', `--timeout must be a number of seconds above 0 and at most 86400 (a day), got "${v}"`);
      return n;
    })
    .action(async (runId: string, o: { timeout?: number }, cmd: Command) =>
      run(async (ctx) => (await import('./actions/commands.js')).checkpointCommand(ctx, runId, { timeoutSec: o.timeout }))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('rehydrate')))
    .description('type /clear, then the rehydrate command, then clear the signal')
    .argument('<run>', 'run id or a unique prefix of one')
    .action(async (runId: string, _o: unknown, cmd: Command) =>
      run(async (ctx) => (await import('./actions/commands.js')).rehydrateCommand(ctx, runId))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('terminate')))
    .description('force-terminate live teammates (never the lead unless named)')
    .argument('<run>', 'run id or a unique prefix of one')
    .option('--member <name>', 'a member to terminate (repeatable)', collect)
    .action(async (runId: string, o: { member?: string[] }, cmd: Command) =>
      run(async (ctx) => (await import('./actions/commands.js')).terminateCommand(ctx, runId, { members: o.member ?? [] }))(cmd),
    );

  addActionOptions(addGlobalOptions(program.command('watch')))
    .description('headless supervisor: print events as JSON lines')
    .option('--auto-checkpoint', 'run the checkpoint → clear → rehydrate cycle whenever a signal appears')
    .action(async (o: { autoCheckpoint?: boolean }, cmd: Command) =>
      run(async (ctx) => (await import('./actions/watch.js')).watchCommand(ctx, { autoCheckpoint: Boolean(o.autoCheckpoint) }))(cmd),
    );

  addGlobalOptions(program.command('demo'))
    .description('build a sandbox of every system with fake agents and open the control room on it')
    .option('--no-ui', 'build the sandbox, print how to point tower at it, and exit')
    .option('--dir <dir>', 'where to build the sandbox (default a new temp dir)')
    .action(async (o: { ui?: boolean; dir?: string }, cmd: Command) =>
      run(async (ctx) => (await import('./demo/command.js')).demoCommand(ctx, { ui: o.ui !== false, dir: o.dir }))(cmd),
    );

  // The far side of a host: streams this box's snapshot over stdin/stdout (see src/remote/serve.ts).
  addGlobalOptions(program.command('serve', { hidden: true }))
    .description('stream this box to another tower over ssh (JSON lines on stdin/stdout)')
    .option('--stdio', 'speak the protocol on stdin and stdout')
    .action(async (_o: unknown, cmd: Command) =>
      run(async (ctx) => (await import('./remote/serve.js')).serveStdio(ctx))(cmd),
    );

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      if (err.code === 'tower.usage') process.stderr.write(`tower: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  return code;
}
