/**
 * The reader tower sends to a box that has no tower installed: `tower serve --stdio` alone, bundled
 * into one file (dist/tower-reader.js) without the screen, and run there by `node` over the same
 * ssh connection (see ship.ts). It takes the global options a host's `tower` command line may hold.
 */
import { UsageError, parseArgv } from './args.js';
import { EXIT, PROGRAM } from './spec.js';
import { commandContext } from './command-context.js';
import type { GlobalOptions } from '../context/context.js';
import { serveStdio } from '../remote/serve.js';

/** Runs `[global options] serve --stdio` (tower's own command line); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgv(PROGRAM, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`tower: ${err.message}\n`);
    return EXIT.usage;
  }
  if (parsed.kind !== 'run' || parsed.command !== 'serve') {
    process.stderr.write('tower: this reader only serves (serve --stdio)\n');
    return EXIT.usage;
  }
  const ctx = await commandContext(parsed.opts as GlobalOptions);
  return typeof ctx === 'number' ? ctx : serveStdio(ctx);
}
