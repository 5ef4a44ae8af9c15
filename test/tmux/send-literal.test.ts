/**
 * Text typed into a pane arrives exactly as written, on a real tmux server: tmux reads an argument
 * ending in `;` as a command separator (`run tests;` typed `run tests`), and `\;` as a `;`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literalArg } from '../../src/tmux/client.js';
import type { TmuxFixture } from '../helpers/tmux.js';
import { startTmux } from '../helpers/tmux.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = tempDirsPerTest('tower-send-literal-');
let tmux: TmuxFixture;
beforeAll(async () => {
  tmux = await startTmux();
});
afterAll(async () => {
  await tmux.kill();
});

const TEXTS = ['run tests;', ';', 'a\\;', '\\;;', 'a;b', '{', '}', '{ x }', 'Enter', 'C-c', '-l', 'end \\'];

describe('typing a line into a pane', () => {
  it('arrives exactly: a trailing ;, \\;, braces and key names', async () => {
    // cat -A ends each line it reads with `$`: what arrived, byte for byte.
    const pane = await tmux.newSession('typed', tempDir(), "sh -c 'stty -echo; echo ready; cat -A'");
    // Typed before stty has turned echo off, a line would show twice: type once the pane says so.
    await waitFor(async () => (await tmux.client.capturePane(pane, 50)).includes('ready'), 5000, { what: 'echo off' });
    for (const text of TEXTS) {
      await tmux.client.sendText(pane, text);
      await tmux.client.run(['send-keys', '-t', pane, '-H', '0D']);
    }
    const expected = TEXTS.map((t) => `${t}$`);
    let lines: string[] = [];
    await waitFor(
      async () => {
        lines = (await tmux.client.capturePane(pane, 50)).split('\n').filter((l) => l !== '' && l !== 'ready');
        return lines.length >= TEXTS.length;
      },
      5000,
      { what: 'every line typed' },
    );
    expect(lines).toEqual(expected);
  });

  it('writes a final ; as \\; and leaves every other text as it is', () => {
    expect(literalArg('run tests;')).toBe('run tests\\;');
    expect(literalArg('a\\;')).toBe('a\\\\;');
    expect(literalArg('a;b')).toBe('a;b');
  });
});
