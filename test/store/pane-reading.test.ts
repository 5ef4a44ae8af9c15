import { describe, expect, it } from 'vitest';
import { readPane } from '../../src/store/pane-reading.js';

// Screens shaped like Claude Code's (the input box is always drawn; only the status line differs).
const BOX = [
  '╭──────────────────────────────────────────╮',
  '│ >                                        │',
  '╰──────────────────────────────────────────╯',
  '  ? for shortcuts',
];
const IN_TURN = ['● Reading src/cart.ts', '', '✻ Thinking… (12s · ↑ 1.2k tokens · esc to interrupt)', '', ...BOX].join(
  '\n',
);
const TURN_DONE = ['● Done: the cart total now rounds once.', '', ...BOX].join('\n');
const PERMISSION = [
  '╭──────────────────────────────────────────╮',
  '│ Bash command                             │',
  '│   npm test                               │',
  '│ Do you want to proceed?                  │',
  '│ ❯ 1. Yes                                 │',
  '│   2. No, and tell Claude what to do      │',
  '╰──────────────────────────────────────────╯',
].join('\n');

describe('readPane', () => {
  it('a turn in progress is working, though the input box is drawn', () => {
    expect(readPane(IN_TURN, false, 'node')).toEqual({ activity: 'working', cue: 'interrupt-hint' });
  });

  it('a finished turn with the same box and nothing moving is waiting at its prompt', () => {
    expect(readPane(TURN_DONE, false, 'node')).toEqual({ activity: 'waiting', cue: 'prompt' });
  });

  it('a permission prompt is waiting on a question, even while the screen moves', () => {
    expect(readPane(PERMISSION, true, 'claude')).toEqual({ activity: 'waiting', cue: 'question' });
  });

  it('output still moving is working', () => {
    expect(readPane('  editing src/cart.ts\n  running tests: 23 passed', true, 'node')).toEqual({
      activity: 'working',
      cue: 'output-moving',
    });
  });

  it('a bare shell is idle, whatever its prompt looks like', () => {
    expect(readPane('op@box:~/work$ \n> ', false, 'bash')).toEqual({ activity: 'idle', cue: 'shell' });
  });

  it('silent output with nothing recognised is idle', () => {
    expect(readPane('all tasks complete · idle', false, 'node')).toEqual({ activity: 'idle', cue: 'silent' });
  });

  it('an interrupt hint scrolled far above the bottom does not count', () => {
    const old = [
      '✻ Thinking… (3s · esc to interrupt)',
      ...Array.from({ length: 20 }, (_, i) => `line ${i}`),
      ...BOX,
    ].join('\n');
    expect(readPane(old, false, 'node').activity).toBe('waiting');
  });
});
