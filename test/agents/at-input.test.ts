/**
 * The guard before typing asks each CLI's module whether its screen is at its input box: on the
 * screens captured from each real CLI, the idle one is, the dialog is not, and a screen cut short
 * of its box is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCliWays } from '../../src/agents/gemini-cli/ways.js';
import { opencodeWays } from '../../src/agents/opencode/ways.js';
import type { AgentWays } from '../../src/agents/types.js';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');
const screen = (dir: string, name: string) => fs.readFileSync(path.join(FIXTURES, dir, 'screens', name), 'utf8');
/** The screen with its bottom lines gone (as a frame caught half drawn). */
const cut = (text: string, drop: number) => {
  const lines = text.trimEnd().split('\n');
  return lines.slice(0, Math.max(0, lines.length - drop)).join('\n');
};

const CLIS: [string, AgentWays, string][] = [
  ['Gemini CLI 0.61.0', geminiCliWays, 'gemini-cli-0.61.0'],
  ['opencode 1.18.33', opencodeWays, 'opencode-1.18.33'],
];

describe.each(CLIS)('%s: is its screen at its input box', (_name, ways, dir) => {
  it('is at its idle screen', () => {
    expect(ways.screen.atInput(screen(dir, 'idle.txt'))).toBeNull();
  });

  it('is not at its permission dialog, nor at any bottom-cut copy of it', () => {
    const dialog = screen(dir, 'permission.txt');
    expect(ways.screen.atInput(dialog)?.kind).toBeDefined();
    for (let drop = 1; drop < 12; drop++) expect(ways.screen.atInput(cut(dialog, drop))).not.toBeNull();
  });

  it('is not at an empty screen', () => {
    expect(ways.screen.atInput('\n\n')?.kind).toBe('no-input-box');
  });
});
