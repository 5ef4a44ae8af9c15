/**
 * `tower`: the launcher of the control room. It checks the terminal and the keymap, then switches
 * to the alternate screen and draws a first frame at once, before React and ink are even loaded
 * (they take a good part of the start-up); the session replaces that frame with the live screen.
 */
import type { AppContext } from '../context.js';
import { resolveBindings } from './keymap.js';
import { installLifecycle, SIGNAL_CODES } from './terminal/lifecycle.js';
import { Terminal } from './terminal/terminal.js';

/** The message when stdout is no terminal. */
export const NOT_A_TTY = 'tower: the control room needs a terminal (stdout is not a TTY); try `tower status`';

/** The first frame: the header the live screen shows while it reads the state files. */
export function firstFrame(color: boolean): string {
  const title = color ? '\u001b[36m tower\u001b[0m\u001b[2m · reading state…\u001b[0m' : ' tower · reading state…';
  return `\u001b[1;1H${title}`;
}

/** `tower`: the interactive control room. Refuses (exit 1) when stdout is not a TTY. */
export async function runControlRoom(ctx: AppContext): Promise<number> {
  const out = ctx.out as NodeJS.WriteStream;
  if (!out.isTTY) {
    ctx.err.write(`${NOT_A_TTY}\n`);
    return 1;
  }
  if (!process.stdin.isTTY) {
    ctx.err.write('tower: the control room needs a terminal to read keys from (stdin is not a TTY); try `tower status`\n');
    return 1;
  }
  const keys = resolveBindings(ctx.config.keys);
  if (!keys.ok) {
    ctx.err.write(`tower: config ${ctx.configFile ?? ''}: ${keys.errors.join('; ')}\n`);
    return 2;
  }
  const terminal = new Terminal(process.stdout, process.stdin);
  terminal.enter();
  process.stdout.write(firstFrame(ctx.color));
  // Until the session has its own handlers, a signal or a crash still gives the terminal back.
  const early = installLifecycle({
    onSignal(signal) {
      terminal.restore();
      process.exit(SIGNAL_CODES[signal]);
    },
    onCrash(error) {
      terminal.restore();
      process.stderr.write(`tower: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  });
  try {
    const { startControlRoom } = await import('./session.js');
    return await startControlRoom(ctx, { bindings: keys.bindings, terminal, onStarted: early });
  } finally {
    early();
    terminal.restore();
  }
}
