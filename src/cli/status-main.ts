/**
 * `tower status` on this box, as one file of its own: dist/status.cjs, which bin/tower.js runs with
 * the compiled code kept from the build (Node 20 has no compile cache of its own). Everything else
 * (help, a usage error, other boxes, every other command) is the full command line's, in cli.ts:
 * then this answers null and nothing has been printed.
 */
import { UsageError, parseArgv } from './args.js';
import { PROGRAM } from './spec.js';
import { quietOnClosedOutput } from './closed-output.js';
import { commandContext } from './command-context.js';
import type { GlobalOptions } from '../context/context.js';
import { statusCommand } from '../commands/status.js';

/** Runs `tower status [--json]` for this box alone; null when argv asks for anything else. */
export async function statusMain(argv: string[]): Promise<number | null> {
  let parsed;
  try {
    parsed = parseArgv(PROGRAM, argv);
  } catch (err) {
    if (err instanceof UsageError) return null;
    throw err;
  }
  if (parsed.kind !== 'run' || parsed.command !== 'status') return null;
  quietOnClosedOutput();
  const ctx = await commandContext(parsed.opts as GlobalOptions);
  if (typeof ctx === 'number') return ctx;
  // Other boxes are read over ssh by the machinery the full command line loads.
  if (ctx.hosts.length > 0 || !ctx.local) return null;
  return statusCommand(ctx, { json: Boolean(parsed.opts.json) });
}
