import type { AppContext } from '../context.js';

/** The message when stdout is no terminal. */
export const NOT_A_TTY = 'tower: the control room needs a terminal (stdout is not a TTY); try `tower status`';

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
  // React and ink load only now, after the checks: a refusal stays fast.
  const { startControlRoom } = await import('./session.js');
  return startControlRoom(ctx);
}
