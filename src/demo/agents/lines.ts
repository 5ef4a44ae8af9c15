/**
 * A teammate takes a line typed to it (`s`, `tower send`): it says what it got and shows its input
 * prompt again, as Claude Code clears its input box once a message is submitted. Lines typed while
 * it asks a question are the question's (ask.ts reads them).
 */
import readline from 'node:readline';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

/** Reads the lines typed to the agent while `free()` says it is not at a question. */
export function takeLines(rt: AgentRuntime, free: () => boolean): void {
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rt.onStop(() => rl.close());
  rl.on('line', (line) => {
    const text = line.trim();
    if (text === '' || !free()) return;
    rt.print(style.dim(`  ↳ noted: ${text}`));
    rt.print('❯ ');
  });
}
