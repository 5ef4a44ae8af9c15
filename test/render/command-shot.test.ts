import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxClient } from '../../src/tmux/client.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { shootCommand } from '../../scripts/render/command-shot.js';
import { pngSize } from '../../scripts/render/png.js';
import { svgLayout } from '../../scripts/render/svg.js';
import {
  captureText,
  closeStage,
  findRow,
  openStage,
  pressKeys,
  typeText,
  waitForScreen,
} from '../../scripts/render/stage.js';
import type { Stage } from '../../scripts/render/stage.js';
import { removeAfterFile } from '../helpers/leftovers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Where tmux puts the socket of `-L name`. */
function socketFile(name: string): string {
  return path.join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, name);
}

function tempDir(): string {
  const dir = removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-shot-test-')));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function stage(command: string, cols = 40, rows = 6): Promise<Stage> {
  const s = await openStage({ socketName: uniqueSocketName(), command, cols, rows });
  cleanups.push(() => closeStage(s));
  return s;
}

describe('shootCommand', () => {
  it('runs a command in a private tmux, captures its colours and writes the SVG and PNG', async () => {
    const out = tempDir();
    const socketName = uniqueSocketName();
    const shot = await shootCommand(out, {
      // The short sleep lets tmux read the output before the pane dies (on a loaded machine it can
      // mark the pane dead first and never draw what the pty still held).
      command: `printf '\\033[38;2;255;0;0mred & <bold>\\033[0m\\n\\033[44m blue \\033[0m ✓\\n'; sleep 0.3`,
      name: 'colours',
      cols: 40,
      rows: 10,
      title: 'printf',
      waitFor: undefined,
      timeoutMs: 10_000,
      socketName,
    });
    const svg = fs.readFileSync(path.join(out, 'colours.svg'), 'utf8');
    expect(svg).toContain('fill="#ff0000">red &amp; &lt;bold&gt;</tspan>');
    expect(svg).toMatch(/<rect [^>]*fill="#5fa8ee"\/>/);
    expect(svg).toContain('✓');
    // Two lines of output: the trailing empty rows of the pane are dropped.
    expect(shot.screen.rows).toBe(2);
    const layout = svgLayout(40, 2);
    expect(pngSize(fs.readFileSync(path.join(out, 'colours.png')))).toEqual({
      width: layout.width,
      height: layout.height,
    });
    // The private server is gone afterwards, and so is its socket file.
    expect(await new TmuxClient({ name: socketName }).listPanesOrNull()).toBeNull();
    expect(fs.existsSync(socketFile(socketName))).toBe(false);
  });

  it('waits for text when asked, for a command that keeps running', async () => {
    const out = tempDir();
    const shot = await shootCommand(out, {
      command: 'echo starting; sleep 0.3; echo READY; sleep 30',
      name: 'ready',
      cols: 30,
      rows: 5,
      title: 'ready',
      waitFor: 'READY',
      timeoutMs: 10_000,
    });
    expect(shot.svg).toContain('READY');
  });

  it('fails with the last screen when the command does not finish in time, and still cleans up', async () => {
    const socketName = uniqueSocketName();
    await expect(
      shootCommand(tempDir(), {
        command: 'echo still going; sleep 30',
        name: 'slow',
        cols: 30,
        rows: 5,
        title: 'slow',
        waitFor: undefined,
        timeoutMs: 500,
        socketName,
      }),
    ).rejects.toThrow(/timed out/);
    expect(await new TmuxClient({ name: socketName }).listPanesOrNull()).toBeNull();
    expect(fs.existsSync(socketFile(socketName))).toBe(false);
  });

  it('refuses a name that is not a plain file name', async () => {
    await expect(
      shootCommand(tempDir(), {
        command: 'true',
        name: '../escape',
        cols: 20,
        rows: 3,
        title: 't',
        waitFor: undefined,
        timeoutMs: 5000,
      }),
    ).rejects.toThrow(/bad screenshot name/);
  });
});

describe('stage', () => {
  it('gives the program every row of the pane at the asked size', async () => {
    const s = await stage('stty size; sleep 30', 37, 9);
    await waitForScreen(s, '9 37', { timeoutMs: 5000 });
  });

  it('types text and presses keys, and finds the row that shows a text', async () => {
    const s = await stage('cat', 30, 6);
    await typeText(s, 'first line');
    await pressKeys(s, 'Enter');
    // cat echoes the line once it runs: typing on before that interleaves its echo with the next line.
    await waitForScreen(s, (text) => text.split('\n').filter((l) => l === 'first line').length === 2);
    await typeText(s, 'second');
    await pressKeys(s, 'Enter');
    const screen = await waitForScreen(s, (text) => text.split('\n').filter((l) => l === 'second').length === 2);
    expect(findRow(screen, 'second')).toBe(2);
    expect(findRow(screen, 'first line')).toBe(0);
    expect(findRow(screen, /^first/)).toBe(0);
    expect(findRow(screen, 'absent')).toBe(-1);
  });

  it('quotes the screen it saw when a wait times out', async () => {
    const s = await stage('echo visible text; sleep 30', 30, 4);
    await waitForScreen(s, 'visible');
    await expect(waitForScreen(s, 'never shown', { timeoutMs: 300, what: 'the impossible' })).rejects.toThrow(
      /the impossible[\s\S]*visible text/,
    );
    expect(await captureText(s)).toContain('visible text');
  });
});
