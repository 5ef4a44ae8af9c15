/** The sandbox directory rules: a new or empty dir, or an old sandbox; never anything else. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_MARKER, SandboxDirError, makeTempSandboxDir, prepareSandboxDir } from '../../src/demo/sandbox-dir.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(() => removeTempDirs());

describe('prepareSandboxDir', () => {
  it('creates a missing dir and marks it', () => {
    const dir = path.join(tempDir(), 'a', 'b');
    expect(prepareSandboxDir(dir)).toBe(fs.realpathSync(dir));
    expect(fs.readdirSync(dir)).toEqual([SANDBOX_MARKER]);
  });

  it('takes an empty dir, and a new temp dir named tower-demo-*', () => {
    const dir = tempDir();
    prepareSandboxDir(dir);
    expect(fs.existsSync(path.join(dir, SANDBOX_MARKER))).toBe(true);
    const tmp = makeTempSandboxDir();
    expect(path.basename(tmp)).toMatch(/^tower-demo-/);
    expect(fs.readdirSync(tmp)).toEqual([]);
    fs.rmSync(tmp, { recursive: true });
  });

  it('refuses a non-empty dir that is not a sandbox, and leaves it untouched', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'thesis.tex'), 'precious');
    expect(() => prepareSandboxDir(dir)).toThrow(SandboxDirError);
    expect(() => prepareSandboxDir(dir)).toThrow(/not empty and is not a tower demo sandbox/);
    expect(fs.readdirSync(dir)).toEqual(['thesis.tex']);
  });

  it('refuses a path that is a file', () => {
    const file = path.join(tempDir(), 'f');
    fs.writeFileSync(file, '');
    expect(() => prepareSandboxDir(file)).toThrow(/not a directory/);
  });

  it('rebuilds a previous sandbox, removing only what a sandbox holds', () => {
    const dir = tempDir();
    prepareSandboxDir(dir);
    fs.mkdirSync(path.join(dir, 'projects', 'old'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'claude', 'teams'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    prepareSandboxDir(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([SANDBOX_MARKER, 'notes.txt']);
  });
});
