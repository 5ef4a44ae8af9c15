/**
 * The reader tower sends to a box that has no tower installed: `tower serve --stdio` alone, bundled
 * into one file (dist/tower-reader.js) without the screen, and run there by `node` over the same
 * ssh connection (see ship.ts). It takes the global options a host's `tower` command line may hold.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { createContext } from '../context.js';
import type { GlobalOptions } from '../context.js';
import { serveStdio } from './serve.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Runs `[global options] serve --stdio`; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = new Command('tower')
    .exitOverride()
    .option('--root <dir>', 'a project root to watch (repeatable)', collect)
    .option('--claude-dir <dir>', 'the Claude Code config dir')
    .option('-L, --socket-name <name>', 'tmux socket name')
    .option('-S, --socket-path <path>', 'tmux socket path')
    .option('--config <file>', 'config file')
    .option('--no-color', 'no colour')
    .option('--readonly', 'refuse every action');
  program
    .command('serve')
    .option('--stdio', 'speak the protocol on stdin and stdout')
    .action(async (_o: unknown, cmd: Command) => {
      try {
        code = await serveStdio(await createContext(cmd.optsWithGlobals() as GlobalOptions));
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        process.stderr.write(`tower: ${err.message}\n`);
        code = 2;
      }
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return 2;
    throw err;
  }
  return code;
}
