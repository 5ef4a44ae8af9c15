import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueSocketName } from '../helpers/tmux.js';
import { isSelected, selectRun, towerCommand } from '../../scripts/render/demo-shots.js';
import { captureText, closeStage, openStage, waitForScreen } from '../../scripts/render/stage.js';
import type { Stage } from '../../scripts/render/stage.js';
import { removeAfterFile } from '../helpers/leftovers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A stand-in runs list: `>` marks the selected run, arrows move it, and the list re-sorts
// itself once (the selection follows the run, as in tower) to catch navigation that counts rows.
const FAKE_LIST = `
const order = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
let selected = null;
const draw = () => {
  const sel = selected ?? order[0];
  process.stdout.write('\\x1b[2J\\x1b[H' + order.map((n) => '┃' + (n === sel ? '>' : ' ') + ' sys ' + n + '  ┃').join('\\r\\n'));
};
const move = (d) => {
  const at = Math.max(0, order.indexOf(selected ?? order[0]));
  selected = order[Math.min(order.length - 1, Math.max(0, at + d))];
};
process.stdin.setRawMode(true);
process.stdin.on('data', (b) => {
  const k = b.toString();
  if (k === '\\x1b[B') move(1);
  else if (k === '\\x1b[A') move(-1);
  else if (k === 'q') process.exit(0);
  setTimeout(draw, 30);
});
setTimeout(() => { order.reverse(); draw(); }, 400);
draw();
`;

async function fakeList(): Promise<Stage> {
  const dir = removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-shot-list-')));
  const script = path.join(dir, 'list.cjs');
  fs.writeFileSync(script, FAKE_LIST);
  const stage = await openStage({
    socketName: uniqueSocketName(),
    command: `${process.execPath} ${script}`,
    cols: 30,
    rows: 8,
  });
  cleanups.push(async () => {
    await closeStage(stage);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await waitForScreen(stage, 'epsilon');
  return stage;
}

describe('isSelected', () => {
  const screen = [
    '┏━[> Runs · 3]━━┓',
    '┃  tina     checkout-flow  running',
    '┃> harness  sheets-clone   waiting',
    '┃  sage     EPIC-042',
  ].join('\n');

  it('reads the marked row of the runs list', () => {
    expect(isSelected(screen, 'sheets-clone')).toBe(true);
    expect(isSelected(screen, 'checkout-flow')).toBe(false);
  });

  it('does not take a prefix of a name for the name', () => {
    expect(isSelected(screen, 'sheets')).toBe(false);
  });
});

describe('selectRun', () => {
  it('walks to a run by reading the screen, also after the list re-sorts', async () => {
    const stage = await fakeList();
    const screen = await selectRun(stage, 'delta');
    expect(isSelected(screen, 'delta')).toBe(true);
    // Wait out the re-sort, then select another run from the new order.
    await waitForScreen(stage, (s) => s.indexOf('epsilon') < s.indexOf('alpha'));
    expect(isSelected(await selectRun(stage, 'beta'), 'beta')).toBe(true);
    expect(isSelected(await captureText(stage), 'beta')).toBe(true);
  });

  it('gives up with the screen when the run is not there', async () => {
    const stage = await fakeList();
    await expect(selectRun(stage, 'omega', 1500)).rejects.toThrow(/could not select run omega[\s\S]*alpha/);
  });
});

describe('towerCommand', () => {
  it('passes every root, the claude dir and the sandbox socket, quoted, without NO_COLOR', () => {
    const cmd = towerCommand({
      roots: ['/tmp/a b/one', '/tmp/two'],
      claudeDir: '/tmp/claude',
      socketName: 'tower-shots-x',
    });
    expect(cmd).toMatch(/^env -u NO_COLOR /);
    expect(cmd).toContain("--root '/tmp/a b/one'");
    expect(cmd).toMatch(/--root '?\/tmp\/two'?/);
    expect(cmd).toMatch(/--claude-dir '?\/tmp\/claude'?/);
    expect(cmd).toMatch(/-L '?tower-shots-x'?$/);
    expect(cmd).toMatch(/bin\/tower\.js/);
  });
});
