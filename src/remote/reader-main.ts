/**
 * The reader tower sends to a box that has no tower installed: `tower serve --stdio` alone, bundled
 * into one file (dist/tower-reader.js) without the screen, and run there by `node` over the same
 * ssh connection (see ship.ts). It takes the global options a host's `tower` command line may hold.
 */
import { UsageError, parseArgv } from '../cli-args.js';
import { GLOBAL_OPTIONS } from '../cli-options.js';
import { ConfigError } from '../config.js';
import { createContext } from '../context.js';
import type { GlobalOptions } from '../context.js';
import { serveStdio } from './serve.js';

const READER = {
  name: 'tower',
  description: "tower's reader for a box without tower",
  version: '0.1.0',
  globalOptions: GLOBAL_OPTIONS,
  commands: [{ name: 'serve', description: 'stream this box over stdin/stdout', options: [{ flags: '--stdio', description: 'speak the protocol on stdin and stdout' }] }],
};

/** Runs `[global options] serve --stdio`; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgv(READER, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`tower: ${err.message}\n`);
    return 2;
  }
  if (parsed.kind !== 'run' || parsed.command !== 'serve') {
    process.stderr.write('tower: this reader only serves (serve --stdio)\n');
    return 2;
  }
  try {
    return await serveStdio(await createContext(parsed.opts as GlobalOptions));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`tower: ${err.message}\n`);
    return 2;
  }
}
