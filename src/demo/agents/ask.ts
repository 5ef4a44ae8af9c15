/**
 * A permission dialog drawn the way Claude Code 2.1.332 draws its Bash one (the captures in
 * test/fixtures/claude-code-2.1.332/screens/): a full-width `─` rule, `Bash command`, a tip, the
 * description, the command between two `╌` rules, `Do you want to proceed?`, four numbered choices
 * whose labels wrap under themselves, and the key hint. The agent really waits on it: a line on its
 * input answers (`1`, `y` or an empty line: yes; `2`: yes, and always here; `3`: yes, and auto mode;
 * `4` or `n`: no).
 */
import readline from 'node:readline';
import { wrapWords } from './cli-screens.js';
import type { AgentRuntime } from './runtime.js';
import { style } from './runtime.js';

/** The narrowest and widest the dialog is drawn; the pane's width in between. */
const MIN_WIDTH = 40;
const MAX_WIDTH = 200;
/** Where an option's label starts (` ❯ 1. `): its wrapped lines are indented to it, as Claude Code does. */
const LABEL_AT = 6;

/** What a choice does: allowed or not, and the line the agent prints on taking it. */
export interface Answer {
  allowed: boolean;
  said: string;
}

/** The dialog's lines for `command`, asked in `dir`, drawn `width` cells wide. */
export function permissionLines(command: string, dir: string, width: number): string[] {
  const w = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width));
  const text = w - 2;
  const cut = (s: string) => (s.length > text ? `${s.slice(0, text - 1)}…` : s);
  const option = (n: number, label: string, cursor = false) =>
    wrapWords(label, w - LABEL_AT - 1).map((l, i) =>
      i === 0 ? ` ${cursor ? '❯' : ' '} ${n}. ${l}` : `${' '.repeat(LABEL_AT)}${l}`,
    );
  return [
    '─'.repeat(w),
    ' Bash command',
    ...wrapWords('Tip: auto mode handles these prompts for you — choose "switch to auto mode" below', text).map(
      (l) => ` ${l}`,
    ),
    // The description Claude Code's model writes; here the command's first two words (`Running npx linkinator`).
    ` ${cut(`Running ${command.split(' ').slice(0, 2).join(' ')}`)}`,
    '╌'.repeat(w),
    ` ${cut(command)}`,
    '╌'.repeat(w),
    ' Do you want to proceed?',
    ...option(1, 'Yes', true),
    ...option(2, `Yes, and always allow access to ${dir} from this project`),
    ...option(3, 'Yes, and switch to auto mode · auto mode handles these prompts for you'),
    ...option(4, 'No'),
    '',
    ' Esc to cancel · Tab to amend',
  ];
}

/** What a line typed at the dialog chooses, or null when it chooses nothing (the dialog stays). */
export function answerOf(line: string, dir: string): Answer | null {
  switch (line.trim().toLowerCase()) {
    case '':
    case '1':
    case 'y':
    case 'yes':
      return { allowed: true, said: '  ✓ allowed' };
    case '2':
      return { allowed: true, said: `  ✓ allowed, and from now on without asking in ${dir}` };
    case '3':
      return { allowed: true, said: '  ✓ allowed · auto mode on: no more questions' };
    case '4':
    case 'n':
    case 'no':
      return { allowed: false, said: '  ✗ declined: doing it another way' };
    default:
      return null;
  }
}

/** Draws the dialog and resolves with the answer: true to allow. */
export function askPermission(rt: AgentRuntime, command: string): Promise<boolean> {
  const dir = process.cwd();
  const draw = () => {
    for (const line of permissionLines(command, dir, process.stdout.columns ?? 80)) rt.print(line);
  };
  draw();
  // A pane made narrower rewraps the options' lines from its left edge, which reads as output below
  // the dialog: drawn again at the new width, as Claude Code redraws it.
  process.stdout.on('resize', draw);
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    const done = () => {
      process.stdout.off('resize', draw);
      rl.close();
    };
    rt.onStop(done);
    rl.on('line', (line) => {
      const answer = answerOf(line, dir);
      if (!answer) return;
      done();
      rt.print(answer.allowed ? style.green(answer.said) : style.amber(answer.said));
      resolve(answer.allowed);
    });
  });
}
