/** `tower status | head -1`, `tower watch | head -3`: a reader that goes away ends tower quietly with exit 0. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBox, tempDir, writeFile } from '../helpers/box.js';
import type { Box } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let cli: BuiltCli;
let box: Box;
let xdg: string;
beforeAll(async () => {
  cli = await buildCli();
  box = buildBox();
  xdg = tempDir('tower-xdg-');
}, 60_000);
afterAll(() => {
  cli.remove();
  box.remove();
  fs.rmSync(xdg, { recursive: true, force: true });
});

/**
 * Runs tower with its stdout a pipe whose reading end is closed after `keepBytes` bytes (0: at
 * once), as `| head` does; resolves with the exit code, the signal and stderr.
 */
function withClosedStdout(
  args: string[],
  keepBytes: number,
  afterClose: () => void = () => undefined,
): Promise<{ code: number | null; signal: string | null; stderr: string; got: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        cli.bin,
        ...args,
        '--claude-dir',
        box.claudeDir,
        ...box.roots.flatMap((r) => ['--root', r]),
        '-L',
        uniqueSocketName(),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: xdg },
      },
    );
    let stderr = '';
    let got = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    let nudges: NodeJS.Timeout | undefined;
    const close = () => {
      child.stdout.destroy();
      nudges = setInterval(afterClose, 300);
    };
    if (keepBytes === 0) close();
    else
      child.stdout.on('data', (b: Buffer) => {
        got += b.toString();
        if (got.length >= keepBytes) close();
      });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tower ${args.join(' ')} did not end after its stdout closed; stderr: ${stderr}`));
    }, 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(nudges);
      resolve({ code, signal, stderr, got });
    });
  });
}

describe('a closed stdout', () => {
  it('ends tower status quietly with exit 0', async () => {
    for (const args of [['status'], ['status', '--json']]) {
      const r = await withClosedStdout(args, 0);
      expect(r.stderr, args.join(' ')).toBe('');
      expect([r.code, r.signal], args.join(' ')).toEqual([0, null]);
    }
  });

  it('ends tower watch quietly with exit 0 once its reader is gone', async () => {
    // Watch only learns that its reader left when it next writes: new teams give it events to print.
    let n = 0;
    const r = await withClosedStdout(['watch'], 1, () =>
      writeFile(path.join(box.claudeDir, 'teams', `late-${n++}`, 'config.json'), { name: `late-${n}`, members: [] }),
    );
    expect(r.got.length).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect([r.code, r.signal]).toEqual([0, null]);
  });
});
