/**
 * The password of opencode's server as the operator gives it to tower: a private file in tower's
 * config dir, read as its first line; none when it is missing; refused, with nothing read, when
 * others may read it, when it is a symlink, or when it is empty. No problem names the password.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { passwordFile, readPassword } from '../../src/agents/opencode/password.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function configHome(): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tower-oc-password-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'tower'));
  return { XDG_CONFIG_HOME: dir };
}

describe("opencode's server password", () => {
  it('is none without the file, and the first line of a private one', () => {
    const env = configHome();
    expect(readPassword(env)).toEqual({ password: null, problem: null });
    fs.writeFileSync(passwordFile(env), 's3cret word\nnot this\n', { mode: 0o600 });
    expect(readPassword(env)).toEqual({ password: 's3cret word' });
  });

  it('is refused when others may read it, when it is a symlink, or empty, naming no password', () => {
    const env = configHome();
    const file = passwordFile(env);
    fs.writeFileSync(file, 'open-secret\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const open = readPassword(env);
    expect(open).toMatchObject({ password: null, problem: expect.stringContaining('chmod 600') });
    expect(JSON.stringify(open)).not.toContain('open-secret');
    const real = path.join(path.dirname(file), 'real');
    fs.renameSync(file, real);
    fs.chmodSync(real, 0o600);
    fs.symlinkSync(real, file);
    expect(readPassword(env)).toMatchObject({ password: null, problem: expect.stringContaining('ELOOP') });
    fs.rmSync(file);
    fs.writeFileSync(file, '', { mode: 0o600 });
    expect(readPassword(env)).toMatchObject({ password: null, problem: expect.stringContaining('is empty') });
  });
});
