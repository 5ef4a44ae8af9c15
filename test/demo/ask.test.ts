/** The demo's asking agent draws Claude Code 2.1.332's Bash dialog, and tower reads it as it reads the real one. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerOf, permissionLines } from '../../src/demo/agents/ask.js';
import { optionFor, readPrompt } from '../../src/store/prompt-reading.js';

const SCREENS = new URL('../fixtures/claude-code-2.1.332/screens/', import.meta.url);
const REAL_DIR = '/tmp/cc-fixture/tower-claude-000000/project';
const DIR = '/tmp/tower-demo-0000/projects/docs-site';
const COMMAND = 'npx linkinator docs/ --recurse';

describe('the demo permission dialog', () => {
  it.each(['bash-prompt.200x50.txt', 'bash-prompt.70x40.txt'])('reads as the real one (%s) does', (file) => {
    const width = Number(/\.(\d+)x/.exec(file)?.[1]);
    const real = readPrompt(fs.readFileSync(new URL(file, SCREENS), 'utf8'));
    const lines = permissionLines(COMMAND, DIR, width);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
    const demo = readPrompt(['● Step 1: Bash.', ...lines].join('\n'));
    expect(real).not.toBeNull();
    expect(demo?.question).toBe(real?.question);
    expect(demo?.options).toEqual(real?.options.map((o) => ({ ...o, label: o.label.replace(REAL_DIR, DIR) })));
    expect(demo?.subject).toContain(COMMAND);
    expect(demo && optionFor(demo, 'n')?.key).toBe('4');
    expect(lines[0]).toBe('─'.repeat(width));
    expect(lines.filter((l) => l === '╌'.repeat(width))).toHaveLength(2);
  });

  it('takes every option: 1, 2 and 3 allow, 4 and n decline, anything else leaves it waiting', () => {
    expect(answerOf('1', DIR)).toMatchObject({ allowed: true, said: expect.stringContaining('allowed') });
    expect(answerOf('', DIR)?.allowed).toBe(true);
    expect(answerOf('2', DIR)).toMatchObject({ allowed: true, said: expect.stringContaining(DIR) });
    expect(answerOf('3', DIR)).toMatchObject({ allowed: true, said: expect.stringContaining('auto mode') });
    expect(answerOf('4', DIR)).toMatchObject({ allowed: false, said: expect.stringContaining('declined') });
    expect(answerOf('n', DIR)?.allowed).toBe(false);
    expect(answerOf('5', DIR)).toBeNull();
    expect(answerOf('maybe', DIR)).toBeNull();
  });

  it('is read as answered once the agent prints its answer below it', () => {
    const lines = [...permissionLines(COMMAND, DIR, 80), '  ✓ allowed', 'writer-2 · running the link check'];
    expect(readPrompt(lines.join('\n'))).toBeNull();
  });
});
