/**
 * The guard before typing on screens the real Claude Code 2.1.332 drew
 * (test/fixtures/claude-code-2.1.332/screens): its input box is let in, with or without a box
 * above it; each of its dialogs is refused, also caught half drawn at any line; a dialog taller
 * than the pane (`↑ 34 more lines` under its options) is read as asking, its subject cut.
 */
import { describe, expect, it } from 'vitest';
import { notAtInput } from '../../src/store/input-box.js';
import { CUT_MARK, readPrompt } from '../../src/store/prompt-reading.js';
import { readFixture } from '../helpers/fixtures.js';

const screen = (name: string) => readFixture(`claude-code-2.1.332/screens/${name}.txt`);
const DIALOGS = [
  'bash-prompt.200x50',
  'bash-prompt.70x40',
  'forwarded-prompt.200x50',
  'forwarded-prompt.pane-teammate',
];

describe('the guard before typing, on the real CLI', () => {
  it('lets a line into its input box, a teammate waiting for approval included', () => {
    expect(notAtInput(screen('idle.200x50'))).toBeNull();
    expect(notAtInput(screen('teammate-waiting.pane'))).toBeNull();
  });

  it('refuses each of its dialogs, naming it', () => {
    for (const name of DIALOGS)
      expect(notAtInput(screen(name)), name).toMatchObject({
        kind: 'dialog',
        reason: expect.stringContaining('shows a prompt (Do you want to proceed? / 1. Yes /'),
      });
  });

  it('refuses each dialog caught half drawn, from its second line to its last', () => {
    for (const name of DIALOGS) {
      const lines = screen(name).trimEnd().split('\n');
      const top = lines.findIndex((l) => /^─{20,}$/.test(l));
      expect(top, name).toBeGreaterThan(0);
      for (let end = top + 2; end <= lines.length; end++)
        expect(notAtInput(lines.slice(0, end).join('\n')), `${name} up to line ${end}`).not.toBeNull();
    }
  });

  it('reads a dialog taller than the pane as asking, its subject cut, and refuses it as taller than the pane', () => {
    const tall = screen('tall-dialog.120x40');
    const p = readPrompt(tall);
    expect(p?.question).toBe('Do you want to proceed?');
    expect(p?.options.map((o) => o.key)).toEqual(['1', '2', '3', '4']);
    expect(p?.cut).toBe('↑ 34 more lines');
    expect(p?.subject.slice(0, 2)).toEqual([CUT_MARK, 'echo harmless line 28']);
    expect(notAtInput(tall)).toMatchObject({
      kind: 'tall-dialog',
      reason: expect.stringContaining('shows a dialog taller than the pane (↑ 34 more lines)'),
    });
  });
});
