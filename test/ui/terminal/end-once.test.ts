/**
 * Two reasons to end at once (a hang-up, and the EIO its terminal restore raises) end tower once:
 * the second waits for the first's tasks (stopping the demo's server) instead of exiting past them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';

const DRIVER = fileURLToPath(new URL('./end-once.ts', import.meta.url));
let dir = '';

afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('a second ending waits for the first: its tasks run, and the first reason is the exit code', () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tower-end-once-'));
  const out = path.join(dir, 'task');
  const r = spawnSync(process.execPath, ['--import', 'tsx', DRIVER, out], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(129);
  expect(fs.readFileSync(out, 'utf8')).toBe('task ran');
});
