/**
 * Demos left running with nobody watching them (built with --no-ui, or whose tower was killed):
 * a new demo says so before it starts another beside them, and in a terminal offers to stop them.
 */
import readline from 'node:readline/promises';
import type { AppContext } from '../context/context.js';
import { demoLabel, hasControlRoom, runningDemos } from '../context/demo-record.js';
import type { DemoRecord } from '../context/demo-record.js';
import { TmuxClient } from '../tmux/client.js';

/** How long the question waits for an answer before the demo goes on (leaving them running). */
const ANSWER_MS = 60_000;

/** Asks one y/N question on the terminal; false on anything but y/yes, or no answer in time. */
async function confirm(question: string, input: NodeJS.ReadStream, output: NodeJS.WritableStream): Promise<boolean> {
  const rl = readline.createInterface({ input, output });
  const timer = setTimeout(() => rl.close(), ANSWER_MS);
  try {
    const answer = await rl.question(question).catch(() => '');
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    clearTimeout(timer);
    rl.close();
  }
}

/** Stops a demo's server (its agents die with their panes). */
async function stopDemo(rec: DemoRecord): Promise<void> {
  await new TmuxClient({ name: rec.socketName }, 5000).killServer().catch(() => undefined);
}

/**
 * Says which running demos have no control room and, when stdin is a terminal, offers to stop
 * them; resolves to the demos stopped.
 */
export async function offerToStopOrphans(
  ctx: AppContext,
  input: NodeJS.ReadStream = process.stdin,
): Promise<DemoRecord[]> {
  const orphans = (await runningDemos(ctx.env)).filter((r) => !hasControlRoom(r));
  if (orphans.length === 0) return [];
  const one = orphans.length === 1;
  ctx.err.write(
    `tower demo: ${one ? 'a demo runs' : `${orphans.length} demos run`} with no control room, its ` +
      `agents still going: ${orphans.map(demoLabel).join(', ')}\n`,
  );
  const how = orphans.map((r) => `tmux -L ${r.socketName} kill-server`).join('; ');
  if (!input.isTTY) {
    ctx.err.write(`tower demo: stop ${one ? 'it' : 'them'} with: ${how}\n`);
    return [];
  }
  if (!(await confirm(`Stop ${one ? 'it' : 'them'} now? [y/N] `, input, ctx.err))) {
    ctx.err.write(`tower demo: left running; stop ${one ? 'it' : 'them'} later with: ${how}\n`);
    return [];
  }
  for (const r of orphans) await stopDemo(r);
  ctx.err.write(`tower demo: stopped ${orphans.map((r) => `-L ${r.socketName}`).join(', ')}\n`);
  return orphans;
}
