/**
 * The input box of the real Claude Code CLI's screens (captured from 2.1.332): a line is taken once
 * the lowest prompt line no longer holds it, even with the transcript echoing it above and a team's
 * lines drawn below the box.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inputBoxCleared } from '../../src/actions/send-confirm.js';

const screen = (name: string): string =>
  fs.readFileSync(fileURLToPath(new URL(`../fixtures/claude-code-2.1.332/screens/${name}`, import.meta.url)), 'utf8');

describe('inputBoxCleared', () => {
  it('is true for an empty input box under a transcript that echoes earlier lines', () => {
    const idle = screen('idle.200x50.txt');
    // The transcript shows "❯ run step 1" above the empty box: the box is what counts.
    expect(idle).toContain('❯ run step 1');
    expect(inputBoxCleared(idle, 'run step 1')).toBe(true);
    expect(inputBoxCleared(screen('teammate-waiting.pane.txt'), 'note from tower')).toBe(true);
  });

  it('is false while the line still stands in the input box', () => {
    const idle = screen('idle.200x50.txt');
    const lines = idle.split('\n');
    const box = lines.findLastIndex((l) => l.trim() === '❯');
    lines[box] = '❯ SENT-LINE-L to the lead';
    expect(inputBoxCleared(lines.join('\n'), 'SENT-LINE-L to the lead')).toBe(false);
  });

  it('is false for a screen with no input box at all', () => {
    expect(inputBoxCleared('building…\nstill building\n', 'x')).toBe(false);
  });
});
