/**
 * A permission prompt drawn the way Claude Code draws one: the command in a box, `Do you want to
 * proceed?` and numbered choices. The agent really waits on it: a line on its input answers
 * (`1`, `y` or an empty line allows; `2`, `n` declines).
 */
import readline from 'node:readline';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

const WIDTH = 60;

function boxed(text: string): string {
  const inner = text.length > WIDTH - 4 ? `${text.slice(0, WIDTH - 5)}…` : text;
  return `│ ${inner.padEnd(WIDTH - 4)} │`;
}

/** The prompt's lines. */
export function permissionLines(command: string): string[] {
  return [
    `╭${'─'.repeat(WIDTH - 2)}╮`,
    boxed('Bash command'),
    boxed(`  ${command}`),
    boxed(''),
    boxed('Do you want to proceed?'),
    boxed('❯ 1. Yes'),
    boxed('  2. No, and tell Claude what to do differently'),
    `╰${'─'.repeat(WIDTH - 2)}╯`,
  ];
}

/** Draws the prompt and resolves with the answer: true to allow. */
export function askPermission(rt: AgentRuntime, command: string): Promise<boolean> {
  for (const line of permissionLines(command)) rt.print(line);
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    rt.onStop(() => rl.close());
    rl.on('line', (line) => {
      const answer = line.trim().toLowerCase();
      if (!['', '1', 'y', 'yes', '2', 'n', 'no'].includes(answer)) return;
      rl.close();
      const allowed = ['', '1', 'y', 'yes'].includes(answer);
      rt.print(allowed ? style.green('  ✓ allowed') : style.amber('  ✗ declined: doing it another way'));
      resolve(allowed);
    });
  });
}
