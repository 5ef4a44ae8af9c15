/**
 * argv → subcommand. Each command module is imported lazily, so `tower status` never loads the UI.
 * Exit codes: 0 success, 1 failure or refusal, 2 bad usage, 3 checkpoint timeout.
 */
import { UsageError, parseArgv } from './args.js';
import { EXIT, PROGRAM } from './spec.js';
import type { CommandName } from './spec.js';
import type { AppContext, GlobalOptions } from '../context/context.js';
import { commandContext } from './command-context.js';
import { quietOnClosedOutput } from './closed-output.js';

export { EXIT } from './spec.js';

type Runner = (ctx: AppContext, args: string[], opts: Record<string, unknown>) => Promise<number>;

const actions = () => import('../commands/actions.js');

/** What each command runs (the compiler checks every command has one). */
const RUNNERS: Record<CommandName, Runner> = {
  status: async (ctx, _args, o) => {
    const status = await import('../commands/status.js');
    return status.statusCommand(ctx, { json: Boolean(o.json) });
  },
  grant: async (ctx, [runId, gate], o) =>
    (await actions()).grantCommand(ctx, runId ?? '', gate ?? '', { json: Boolean(o.json) }),
  request: async (ctx, [runId, name], o) =>
    (await actions()).requestCommand(ctx, runId ?? '', name ?? '', { message: o.message as string | undefined }),
  checkpoint: async (ctx, [runId], o) =>
    (await actions()).checkpointCommand(ctx, runId ?? '', { timeoutSec: o.timeout as number | undefined }),
  rehydrate: async (ctx, [runId]) => (await actions()).rehydrateCommand(ctx, runId ?? ''),
  answer: async (ctx, [runId, choice], o) =>
    (await actions()).answerCommand(ctx, runId ?? '', choice ?? '', {
      member: o.member as string | undefined,
      request: o.request as string | undefined,
    }),
  send: async (ctx, [runId, text], o) =>
    (await actions()).sendCommand(ctx, runId ?? '', text ?? '', { member: o.member as string | undefined }),
  hooks: async (ctx, [verb], o) =>
    (await import('../commands/hooks.js')).hooksCommand(ctx, verb ?? '', {
      settings: o.settings as string | undefined,
      holdPermissions: o.holdPermissions as string | undefined,
    }),
  rules: async (ctx, [verb], o) =>
    (await import('../commands/rules.js')).rulesCommand(ctx, verb ?? '', {
      rules: o.rules as string | undefined,
      request: o.request as string | undefined,
      held: o.held as string | undefined,
      run: o.run as string | undefined,
      member: o.member as string | undefined,
    }),
  terminate: async (ctx, [runId], o) =>
    (await actions()).terminateCommand(ctx, runId ?? '', { members: (o.member as string[] | undefined) ?? [] }),
  watch: async (ctx, _args, o) => {
    // Refused at the start, not once per checkpoint signal: the one thing asked for could never be done.
    if (o.autoCheckpoint && ctx.readonly) {
      process.stderr.write(
        'tower: --auto-checkpoint runs the checkpoint cycle, and read-only mode (--readonly, or ' +
          '"readonly" in the config) refuses every action: give one of the two\n',
      );
      return EXIT.usage;
    }
    return (await import('../commands/watch.js')).watchCommand(ctx, { autoCheckpoint: Boolean(o.autoCheckpoint) });
  },
  demo: async (ctx, _args, o) =>
    (await import('../demo/command.js')).demoCommand(ctx, {
      ui: o.ui !== false,
      dir: o.dir as string | undefined,
      socketName: o.socketName as string | undefined,
    }),
  // The far side of a host: streams this box's snapshot over stdin/stdout (see src/remote/serve.ts).
  serve: async (ctx) => (await import('../remote/serve.js')).serveStdio(ctx),
};

const controlRoom: Runner = async (ctx) => {
  const code = await (await import('../ui/main.js')).runControlRoom(ctx);
  // Ended by a signal or a lost terminal: exit now, whatever timer or handle is still about.
  const { SIGNAL_CODES } = await import('../ui/terminal/lifecycle.js');
  if ((Object.values(SIGNAL_CODES) as number[]).includes(code))
    return (await import('../ui/terminal/ending.js')).endProcess(code);
  return code;
};

/** Runs tower with argv (without node and script) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  quietOnClosedOutput();
  let parsed;
  try {
    parsed = parseArgv(PROGRAM, argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    const { withSuggestion } = await import('./did-you-mean.js');
    process.stderr.write(`tower: ${await withSuggestion(err)}\n(tower --help shows the commands)\n`);
    return EXIT.usage;
  }
  if (parsed.kind !== 'run') {
    process.stdout.write(parsed.text);
    return EXIT.ok;
  }
  const ctx = await commandContext(parsed.opts as GlobalOptions);
  if (typeof ctx === 'number') return ctx;
  const runner = parsed.command === null ? controlRoom : RUNNERS[parsed.command as CommandName];
  return runner(ctx, parsed.args, parsed.opts);
}
