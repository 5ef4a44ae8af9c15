/**
 * The README's tour, run as a reader runs it: a demo is started (`tower demo --no-ui`, as `npm
 * start` does but left running), then every command of the tour's console blocks runs against it
 * as written (`node bin/tower.js` is the launcher built from the current source), and what the
 * README shows under each command must be what it prints: each line shown is a whole line of the
 * output, in that order (`…` stands for text that changes from run to run, a lone `…` for lines
 * left out). The demo's tmux server lives in a socket folder of this test's own (TMUX_TMPDIR), so
 * `--demo` finds this demo alone whatever else runs on the box.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeAfterFile, removeTree } from '../helpers/leftovers.js';
import { killServersAndWait } from '../helpers/tmux.js';
import { TmuxClient } from '../../src/tmux/client.js';
import { runBuilt } from '../helpers/run-built.js';
import { buildTowerFromSource } from './demo-operator.js';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');

/** One command of the tour and the lines the README shows it printing. */
interface TourStep {
  argv: string[];
  shown: string[];
}

/** The console blocks between the tour markers: `$ node bin/tower.js …` lines and what follows each. */
export function tourSteps(readme: string): TourStep[] {
  const tour = /<!-- tour:start -->([\s\S]*?)<!-- tour:end -->/.exec(readme)?.[1] ?? '';
  const steps: TourStep[] = [];
  for (const block of tour.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of (block[1] ?? '').split('\n')) {
      if (line.startsWith('$ ')) {
        const words = line.slice(2).trim().split(/\s+/);
        expect(words.slice(0, 2), line).toEqual(['node', 'bin/tower.js']);
        steps.push({ argv: words.slice(2), shown: [] });
      } else if (line.trim() !== '') steps.at(-1)?.shown.push(line);
    }
  }
  return steps;
}

/** A line the README shows as a pattern for one whole line: `…` is any text. */
function linePattern(shown: string): RegExp {
  const parts = shown.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/** Why `output` does not show `shown` in order, or null when it does. */
function mismatch(output: string, shown: readonly string[]): string | null {
  const lines = output.split('\n');
  let at = 0;
  for (const want of shown) {
    if (want.trim() === '…') continue;
    const re = linePattern(want);
    const found = lines.findIndex((l, i) => i >= at && re.test(l));
    if (found < 0) return `no line like ${JSON.stringify(want)} after line ${at + 1} of:\n${output}`;
    at = found + 1;
  }
  return null;
}

let work: string;
let tower: string;
let env: NodeJS.ProcessEnv;
let socket = '';

beforeAll(async () => {
  work = fs.realpathSync(removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'tower-e2e-tour-'))));
  tower = await buildTowerFromSource(path.join(work, 'build'));
  const home = path.join(work, 'home');
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  const sockets = path.join(work, 'sockets');
  fs.mkdirSync(sockets, { mode: 0o700 });
  env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_STATE_HOME: path.join(home, 'state'),
    TMUX_TMPDIR: sockets,
    TMUX: '',
    NO_COLOR: '1',
  };
  const built = await runBuilt(tower, ['demo', '--no-ui'], env);
  expect(built.code, built.stderr).toBe(0);
  socket = /private tmux server -L (\S+)/.exec(built.stdout)?.[1] ?? '';
  const dir = /sandbox ready at (\S+)/.exec(built.stdout)?.[1];
  if (dir) removeAfterFile(dir);
  expect(socket).toMatch(/^tower-demo-/);
}, 90_000);

afterAll(async () => {
  if (socket) {
    const server = new TmuxClient({ path: path.join(work, 'sockets', `tmux-${process.getuid?.() ?? 0}`, socket) });
    await killServersAndWait([server], (c) => c.killServer());
  }
  if (work) removeTree(work);
}, 30_000);

describe("the README's tour", () => {
  const steps = tourSteps(fs.readFileSync(README, 'utf8'));

  it('has commands, each with what it prints', () => {
    expect(steps.map((s) => s.argv.slice(0, 2))).toEqual([
      ['status', '--demo'],
      ['grant', '--demo'],
    ]);
    for (const step of steps) expect(step.shown.length).toBeGreaterThan(2);
  });

  it.each(steps.map((s) => [s.argv.join(' '), s] as const))('%s prints what the README shows', async (_, step) => {
    const r = await runBuilt(tower, step.argv, env);
    expect(r.code, r.stderr).toBe(0);
    expect(mismatch(r.stdout, step.shown)).toBeNull();
  });

  it('finds a line only when the output has it, in order', () => {
    expect(mismatch('a\nb x\nc', ['a', 'b …', '…', 'c'])).toBeNull();
    expect(mismatch('a\nb x\nc', ['c', 'a'])).not.toBeNull();
    expect(mismatch('a\nb x', ['b'])).not.toBeNull();
  });
});
