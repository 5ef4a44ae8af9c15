/**
 * The demo's Codex, opencode and Gemini CLI stand-ins draw what the real CLIs drew (the captured
 * fixtures), so each CLI's own module reads them as it reads the real one: the dialog's question and
 * options, a turn in progress, the input box. And they take keys as the real ones do.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialogChoice, parseKeys } from '../../src/demo/agents/cli-agent.js';
import type { StandInState } from '../../src/demo/agents/cli-screens.js';
import { codexScreen, geminiScreen, opencodeScreen, screenLines } from '../../src/demo/agents/cli-screens.js';
import { codexNotAtInput, codexOption, codexPrompt, readCodexScreen } from '../../src/agents/codex/screen.js';
import * as gemini from '../../src/agents/gemini-cli/screen.js';
import * as opencode from '../../src/agents/opencode/screen.js';
import { optionFor } from '../../src/store/prompt-reading.js';

const fixture = (file: string) => fs.readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8');
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function state(phase: StandInState['phase'], command: string, selected = 0): StandInState {
  return {
    phase,
    cwd: '/tmp/tower-demo-0000/projects/docs-site',
    transcript: [],
    typed: '',
    seconds: 3,
    command,
    reason: 'Create it outside the sandbox?',
    selected,
  };
}

const screen = (draw: typeof codexScreen, s: StandInState, width: number) => screenLines(draw(s, width), 40).join('\n');

describe('the Codex stand-in', () => {
  it.each([100, 70])('draws the dialog as Codex 0.169.0 does, read alike at %i columns', (width) => {
    const real = codexPrompt(fixture(`codex-0.169.0/screens/dialog.${width}x40.txt`));
    const command = width === 100 ? 'touch approved.txt' : 'touch approved-with-a-rather-long-name.txt';
    const reason = /Reason: (.*)/.exec(fixture(`codex-0.169.0/screens/dialog.${width}x40.txt`))?.[1]?.trim() ?? '';
    const demo = codexPrompt(screen(codexScreen, { ...state('asking', command), reason }, width));
    expect(real).not.toBeNull();
    expect(demo).toEqual(real);
    expect(demo && codexOption(demo, 'y')?.key).toBe('1');
    expect(demo && codexOption(demo, 'n')?.key).toBe('3');
    // The plan reads the same choice alike: `y` is the option the dialog marks (y).
    expect(demo && optionFor(demo, 'y')?.key).toBe('1');
  });

  it('shows a turn in progress and its input box as Codex does', () => {
    expect(readCodexScreen(screen(codexScreen, state('working', 'x'), 100), false, 'codex')).toEqual(
      readCodexScreen(fixture('codex-0.169.0/screens/working.100x40.txt'), false, 'node'),
    );
    const idle = screen(codexScreen, state('idle', 'x'), 100);
    expect(readCodexScreen(idle, false, 'codex')).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(codexNotAtInput(idle)).toBeNull();
  });

  it('takes 1 and y at once, 2 and p for always, 3 and Escape for No', () => {
    const at = (data: string) => parseKeys(data).map((k) => dialogChoice('codex', k, 0));
    expect([...at('1'), ...at('y'), ...at('2'), ...at('p'), ...at('3'), ...at('\u001b')]).toEqual([0, 0, 1, 1, 2, 2]);
    expect(at('x')).toEqual([null]);
  });
});

describe('the opencode stand-in', () => {
  it('draws the permission dialog as opencode 1.18.33 does, its selection in colour only', () => {
    const real = opencode.readPrompt(fixture('opencode-1.18.33/screens/permission.txt'));
    const drawn = screen(opencodeScreen, state('asking', 'echo hi > out-a.txt', 1), 120);
    expect(opencode.readPrompt(strip(drawn))).toEqual(real);
    // `n` is its Reject, in the plan as in the module.
    expect(real && optionFor(real, 'n')?.label).toBe('Reject');
    expect(real && opencode.optionFor(real, 'n')?.label).toBe('Reject');
    expect(opencode.selectedOption(drawn)?.label).toBe('Allow always');
    expect(opencode.selectedOption(fixture('opencode-1.18.33/screens/permission.ansi'))?.label).toBe('Allow once');
  });

  it('shows a turn in progress and its input box as opencode does', () => {
    expect(opencode.readScreen(screen(opencodeScreen, state('working', 'x'), 120), false, 'opencode')).toEqual(
      opencode.readScreen(fixture('opencode-1.18.33/screens/busy.txt'), false, 'opencode'),
    );
    const idle = screen(opencodeScreen, state('idle', 'x'), 120);
    expect(opencode.readScreen(idle, false, 'opencode')).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(opencode.notAtInput(idle)).toBeNull();
  });

  it('takes Enter on the selection and Escape for Reject; digits do nothing', () => {
    const at = (data: string, selected: number) => parseKeys(data).map((k) => dialogChoice('opencode', k, selected));
    expect([...at('\r', 0), ...at('\r', 1), ...at('\u001b', 0), ...at('1', 0), ...at('3', 0)]).toEqual([
      0,
      1,
      2,
      null,
      null,
    ]);
    expect(parseKeys('\u001b[C\u001b[D').map((k) => k.kind)).toEqual(['right', 'left']);
  });
});

describe('the Gemini CLI stand-in', () => {
  it('draws the dialog as Gemini CLI 0.61.0 does, read alike', () => {
    const real = gemini.readPrompt(fixture('gemini-cli-0.61.0/screens/permission.txt'));
    const demo = gemini.readPrompt(screen(geminiScreen, state('asking', 'echo hi > out-a.txt'), 160));
    expect(real).not.toBeNull();
    expect(demo).toEqual(real);
  });

  it('shows a turn in progress and its input box as Gemini CLI does', () => {
    expect(gemini.readScreen(screen(geminiScreen, state('working', 'x'), 160), false, 'gemini')).toEqual(
      gemini.readScreen(fixture('gemini-cli-0.61.0/screens/busy.txt'), false, 'node'),
    );
    const idle = screen(geminiScreen, state('idle', 'x'), 160);
    expect(gemini.readScreen(idle, false, 'gemini')).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(gemini.notAtInput(idle)).toBeNull();
  });

  it('takes a digit at once; 3 and Escape are No', () => {
    const at = (data: string) => parseKeys(data).map((k) => dialogChoice('gemini', k, 0));
    expect([...at('1'), ...at('2'), ...at('3'), ...at('\u001b'), ...at('y')]).toEqual([0, 1, 2, 2, null]);
  });
});

describe('keys', () => {
  it('reads a bracketed paste, then the carriage return that submits it', () => {
    expect(parseKeys('\u001b[200~fix the links\u001b[201~\r')).toEqual([
      { kind: 'paste-start' },
      { kind: 'text', text: 'fix the links' },
      { kind: 'paste-end' },
      { kind: 'enter' },
    ]);
  });
});
