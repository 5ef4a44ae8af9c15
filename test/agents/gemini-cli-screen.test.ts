/**
 * Gemini CLI's module against what Gemini CLI 0.61.0 drew and wrote (test/fixtures/gemini-cli-0.61.0/,
 * captured by scripts/capture-gemini-fixtures.ts): its dialog read whole, its activity from the
 * screen and from tower's hook events, its context from the session's jsonl, its process told.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOfGeminiEvent } from '../../src/agents/gemini-cli/hooks.js';
import { geminiCli } from '../../src/agents/gemini-cli/index.js';
import { dialogGone, optionFor, readPrompt, readScreen } from '../../src/agents/gemini-cli/screen.js';
import { GEMINI_WINDOW, sessionUsage } from '../../src/agents/gemini-cli/session.js';
import { geminiCliWays } from '../../src/agents/gemini-cli/ways.js';
import { parseEventLine } from '../../src/store/hook-line.js';
import { FIXTURES, readFixture, tempDirsPerTest } from '../helpers/fixtures.js';

const F = (name: string) => readFixture(`gemini-cli-0.61.0/${name}`);
const tempDir = tempDirsPerTest('tower-gemini-unit-');

describe('Gemini CLI 0.61.0 on screen', () => {
  it('reads the shell dialog whole, with the real command', () => {
    const p = readPrompt(F('screens/permission.txt'));
    expect(p).toMatchObject({
      question: 'Allow execution of [Shell]?',
      subject: ['? Shell  echo hi > out-a.txt', 'echo hi > out-a.txt'],
      options: [
        { key: '1', label: 'Allow once' },
        { key: '2', label: 'Allow for this session' },
        { key: '3', label: 'No, suggest changes (esc)' },
      ],
    });
    expect(optionFor(p!, 'y')?.key).toBe('1');
    expect(optionFor(p!, 'n')?.key).toBe('3');
    expect(geminiCliWays.typing.answer(optionFor(p!, 'n')!)).toEqual([['-l', '--', '3']]);
    expect(dialogGone(F('screens/after-allow.txt'), p!)).toBe(true);
    expect(readPrompt(F('screens/idle.txt'))).toBeNull();
    expect(readPrompt(F('screens/after-allow.txt'))).toBeNull();
  });

  it('reads working, asking and waiting from the screen', () => {
    expect(readScreen(F('screens/busy.txt'), false, 'node')).toEqual({ activity: 'working', cue: 'interrupt-hint' });
    expect(readScreen(F('screens/permission.txt'), false, 'node')).toEqual({ activity: 'waiting', cue: 'question' });
    expect(readScreen(F('screens/idle.txt'), false, 'node')).toEqual({ activity: 'waiting', cue: 'prompt' });
    // Drawn while its AfterTool hooks ran: `Executing Hooks: tower … (esc to cancel, 2s)`.
    expect(readScreen(F('screens/after-allow.txt'), false, 'node')).toEqual({
      activity: 'working',
      cue: 'interrupt-hint',
    });
  });

  it('is told by its node process', () => {
    expect(geminiCli.recognise.argv(F('cmdline.txt').trim().split(' '))).toBe(true);
    expect(
      geminiCli.recognise.argv([
        '/usr/bin/node',
        '--max-old-space-size=12052',
        '/usr/local/lib/node_modules/.bin/gemini',
      ]),
    ).toBe(true);
    expect(geminiCli.recognise.argv(['node', 'server.js', 'gemini'])).toBe(false);
  });
});

describe("Gemini CLI 0.61.0's hooks and session", () => {
  it('says working through a turn and a question at its permission notice', () => {
    const states = F('hooks/events')
      .trimEnd()
      .split('\n')
      .map((l) => parseEventLine(l)!)
      .map((e) => [e.event, stateOfGeminiEvent(e.event, e.notificationType)?.cue ?? null]);
    expect(states[0]).toEqual(['SessionStart', 'prompt']);
    expect(states).toContainEqual(['BeforeAgent', 'interrupt-hint']);
    expect(states).toContainEqual(['AfterAgent', 'prompt']);
    expect(states.at(-1)).toEqual(['Notification', 'question']);
    expect(stateOfGeminiEvent('PreCompress', null)).toBeNull();
  });

  it('takes the context from the last model turn of the session', () => {
    const u = sessionUsage(path.join(FIXTURES, 'gemini-cli-0.61.0/sessions/session.jsonl'));
    expect(u).toMatchObject({ used: 1200, window: GEMINI_WINDOW, tokens: { input: 1200, output: 20 } });
    const dir = tempDir();
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, '{"type":"gemini","tokens":{"input":-5,"output":1}}\nnot json\n');
    expect(sessionUsage(bad)).toBeNull();
    expect(sessionUsage(path.join(dir, 'missing.jsonl'))).toBeNull();
  });
});

describe("Gemini CLI's hook events in tower's events file", () => {
  it('give the pane its state through the registry, a turn working and the dialog a question', async () => {
    const { HookEvents } = await import('../../src/store/hook-events.js');
    const dir = tempDir();
    const file = path.join(dir, 'events');
    const lines = F('hooks/events').trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('"BeforeAgent"'));
    fs.writeFileSync(file, `${lines.slice(0, at + 1).join('\n')}\n`);
    const hooks = new HookEvents(file);
    hooks.refresh();
    const first = parseEventLine(lines[0]!)!;
    const server = first.server!;
    expect(hooks.stateOf(server, '%0', first.at, false)?.activity).toBe('working');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    hooks.refresh();
    expect(hooks.stateOf(server, '%0', first.at, false)).toMatchObject({
      activity: 'waiting',
      cue: 'question',
      event: 'Notification',
    });
  });
});
