/**
 * opencode's module against what opencode 1.18.33 drew and served (test/fixtures/opencode-1.18.33/,
 * captured by scripts/capture-opencode-fixtures.ts): its dialog read whole, the selected option told
 * by colour, its activity, the server's events and permission list parsed, its context.
 */
import { describe, expect, it } from 'vitest';
import { opencode } from '../../src/agents/opencode/index.js';
import {
  dialogGone,
  optionFor,
  optionNamed,
  readPrompt,
  readScreen,
  selectedOption,
} from '../../src/agents/opencode/screen.js';
import { EventParser, PermissionSchema, portOf } from '../../src/agents/opencode/server.js';
import { OpencodeState } from '../../src/agents/opencode/state.js';
import { opencodeWays } from '../../src/agents/opencode/ways.js';
import { opencodeKeys } from '../../src/agents/opencode/keys.js';
import { notAtInput } from '../../src/agents/opencode/screen.js';
import { readFixture } from '../helpers/fixtures.js';

const F = (name: string) => readFixture(`opencode-1.18.33/${name}`);

describe('opencode 1.18.33 on screen', () => {
  it("reads its question tool's dialog: the question, its numbered options, each by its digit", () => {
    const plain = F('screens/question.txt');
    const p = readPrompt(plain);
    expect(p).toMatchObject({
      question: 'Which colour should the button be?',
      subject: ['1. Red (A warm red)', '2. Blue (A cool blue)'],
      // "Type your own answer" asks for text: not offered.
      options: [
        { key: '1', label: 'Red' },
        { key: '2', label: 'Blue' },
      ],
    });
    expect(readScreen(plain, false, 'opencode')).toEqual({ activity: 'waiting', cue: 'question' });
    expect(notAtInput(plain)).toMatchObject({ kind: 'dialog' });
    // A digit answers at once: the key typed is the option's own.
    expect(optionFor(p!, '2')?.label).toBe('Blue');
    expect(opencodeKeys.answer(optionFor(p!, '2')!)).toEqual([['2']]);
    expect(optionFor(p!, '3')).toBeNull();
    expect(optionFor(p!, 'y')).toBeNull();
    expect(optionNamed(p!, 'n')).toBeNull();
    expect(dialogGone(F('screens/idle.txt'), p!)).toBe(true);
    expect(dialogGone(plain, p!)).toBe(false);
  });

  it('reads a dialog whose rows share a row with the sidebar (a long project path wraps over two)', () => {
    /** The screen with the sidebar's text also drawn on the row holding `row`, at the sidebar's column. */
    const shared = (plain: string, row: string) => {
      const lines = plain.split('\n');
      const col = lines.find((l) => l.includes('/tmp/tower-opencode-000000'))!.indexOf('/tmp/');
      return lines.map((l) => (l.includes(row) ? `${l.trimEnd().padEnd(col)}opencode-1qRnZU/pr` : l)).join('\n');
    };
    const question = shared(F('screens/question.txt'), '3. Type your own answer');
    expect(readPrompt(question)?.options.map((o) => o.label)).toEqual(['Red', 'Blue']);
    const permission = shared(F('screens/permission.txt'), '$ echo hi > out-a.txt');
    expect(readPrompt(permission)?.subject).toEqual(['# Shell command', '$ echo hi > out-a.txt']);
    // A row with a wide gap left of the sidebar's column cannot be told from the sidebar: not read.
    const crossing = F('screens/question.txt').replace('1. Red', `1. Red${' '.repeat(12)}x`);
    expect(readPrompt(crossing)).toBeNull();
  });

  it('does not read a question whose option is named like the permission dialog, nor type into it', () => {
    const plain = F('screens/question.txt').replace('1. Red', '1. Reject');
    expect(readPrompt(plain)).toBeNull();
    expect(readScreen(plain, false, 'opencode').activity).not.toBe('working');
    expect(notAtInput(plain)).toMatchObject({ kind: 'unknown-dialog' });
  });

  it('reads the permission dialog whole, with the real command', () => {
    const p = readPrompt(F('screens/permission.txt'));
    expect(p).toMatchObject({
      question: 'Permission required',
      subject: ['# Shell command', '$ echo hi > out-a.txt'],
      options: [
        { key: '1', label: 'Allow once' },
        { key: '2', label: 'Allow always' },
        { key: '3', label: 'Reject' },
      ],
    });
    expect(optionNamed(p!, '1')?.label).toBe('Allow once');
    expect(optionNamed(p!, 'n')?.label).toBe('Reject');
    // By keys Reject (Escape) and Allow once (the selection moved onto it and read back, then
    // Enter); never Allow always, which asks a second Confirm.
    expect(optionFor(p!, 'n')?.label).toBe('Reject');
    expect(optionFor(p!, '3')?.label).toBe('Reject');
    expect(optionFor(p!, '1')?.label).toBe('Allow once');
    expect(optionFor(p!, 'y')?.label).toBe('Allow once');
    expect(optionFor(p!, '2')).toBeNull();
    expect(optionFor(p!, '7')).toBeNull();
    expect(dialogGone(F('screens/permission.txt'), p!)).toBe(false);
    expect(dialogGone(F('screens/after-allow.txt'), p!)).toBe(true);
  });

  it('tells the selected option by its colours', () => {
    expect(selectedOption(F('screens/permission.ansi'))?.label).toBe('Allow once');
    expect(selectedOption(F('screens/permission-right.ansi'))?.label).toBe('Allow always');
    expect(selectedOption(F('screens/busy.ansi'))).toBeNull();
  });

  it('reads working, asking and waiting from the screen', () => {
    expect(readScreen(F('screens/busy.txt'), false, 'opencode')).toEqual({
      activity: 'working',
      cue: 'interrupt-hint',
    });
    expect(readScreen(F('screens/permission.txt'), false, 'opencode')).toEqual({
      activity: 'waiting',
      cue: 'question',
    });
    expect(readScreen(F('screens/after-allow.txt'), false, 'opencode')).toEqual({
      activity: 'working',
      cue: 'interrupt-hint',
    });
    expect(readScreen(F('screens/idle.txt'), false, 'opencode')).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(readScreen('$ ', false, 'bash')).toEqual({ activity: 'idle', cue: 'shell' });
  });

  it('answers by keys that do not depend on where the selection is, and types a line', () => {
    const p = readPrompt(F('screens/permission.txt'))!;
    expect(opencodeWays.typing.answer(optionFor(p, 'n')!)).toEqual([['Escape']]);
    expect(opencodeWays.typing.answer(optionNamed(p, '1')!)).toEqual([]);
    expect(opencodeWays.typing.answer(optionNamed(p, '2')!)).toEqual([]);
    expect(opencodeWays.typing.line('hello')).toEqual([['-l', '--', 'hello'], ['Enter']]);
  });

  it('is told by its process, and its server port by its command line', () => {
    const argv = F('cmdline.txt').trim().split(' ');
    expect(opencode.recognise.argv(argv)).toBe(true);
    expect(opencode.recognise.argv(['/usr/bin/node', 'opencode-helper.js'])).toBe(false);
    expect(portOf(argv)).toBe(4096);
    expect(portOf(['opencode', '--port=5000'])).toBe(5000);
    expect(portOf(['opencode', '--port', '99999'])).toBeNull();
    expect(portOf(['opencode'])).toBeNull();
  });
});

describe("opencode 1.18.33's server", () => {
  it('parses the events of a run into its state and context', () => {
    const parser = new EventParser();
    const text = F('server/events.sse');
    const state = new OpencodeState();
    const seen: string[] = [];
    // Fed in small pieces, as a stream arrives.
    for (let i = 0; i < text.length; i += 97) {
      for (const e of parser.push(text.slice(i, i + 97))) {
        state.apply(e);
        seen.push(e.type);
        if (e.type === 'permission.asked') {
          expect(e.properties.metadata?.command).toBe('echo hi > out-a.txt');
          expect(state.activity()).toEqual({ activity: 'waiting', cue: 'question' });
        }
      }
    }
    expect(seen).toContain('permission.replied');
    expect(state.pending()).toEqual([]);
    expect(state.activity()).toEqual({ activity: 'waiting', cue: 'prompt' });
    expect(state.usage(100_000)).toMatchObject({ used: 1220, window: 100_000, usedPct: 1 });
  });

  it('parses the permission list, and drops an event too long to hold', () => {
    const list = JSON.parse(F('server/permission.json')) as unknown[];
    expect(PermissionSchema.parse(list[0]).metadata?.command).toBe('echo hi > out-a.txt');
    const parser = new EventParser();
    expect(parser.push(`data: {"type":"session.idle","properties":{"sessionID":"${'x'.repeat(300_000)}"}}`)).toEqual(
      [],
    );
    expect(parser.push('"}}\ndata: {"type":"session.idle","properties":{"sessionID":"ses_1"}}\n')).toEqual([
      { type: 'session.idle', properties: { sessionID: 'ses_1' } },
    ]);
    expect(PermissionSchema.safeParse({ id: '../x', sessionID: 's', permission: 'bash' }).success).toBe(false);
  });
});
