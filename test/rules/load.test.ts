/**
 * The rules file read with its trust checks, on real files: a symlink, a file or folder others can
 * write are refused; a file that changes is read again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules, parseRules, RulesSource } from '../../src/rules/load.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-rules-');

function rulesDir(): string {
  const dir = tempDir();
  fs.chmodSync(dir, 0o700);
  return dir;
}

const RULES = { rules: [{ name: 'tests', decision: 'allow', tool: 'Bash', command: 'npm test*' }] };

function writeRules(dir: string, value: unknown = RULES, mode = 0o600): string {
  const file = path.join(dir, 'rules.json');
  fs.writeFileSync(file, JSON.stringify(value), { mode });
  fs.chmodSync(file, mode);
  return file;
}

describe('the rules file', () => {
  it('is read when it and its folder are the user alone', () => {
    const loaded = loadRules(writeRules(rulesDir()));
    expect(loaded.problem).toBeNull();
    expect(loaded.rules.map((r) => r.name)).toEqual(['tests']);
  });

  it('is refused when a symlink, writable by others, or in a folder others can write', () => {
    const dir = rulesDir();
    const real = writeRules(dir);
    const link = path.join(dir, 'link.json');
    fs.symlinkSync(real, link);
    expect(loadRules(link)).toMatchObject({ rules: [], problem: expect.stringContaining('is a symlink') });
    fs.chmodSync(real, 0o620);
    expect(loadRules(real)).toMatchObject({ rules: [], problem: expect.stringContaining('writable by its group') });
    fs.chmodSync(real, 0o600);
    fs.chmodSync(dir, 0o777);
    expect(loadRules(real)).toMatchObject({ rules: [], problem: expect.stringContaining('its folder') });
  });

  it('is read again when it changes, and a file made unsafe answers nothing at the next look', () => {
    const dir = rulesDir();
    const file = writeRules(dir);
    const source = new RulesSource(file);
    expect(source.current().rules).toHaveLength(1);
    fs.chmodSync(file, 0o666);
    expect(source.current()).toMatchObject({ rules: [], problem: expect.stringContaining('writable by') });
  });

  it('that does not parse answers nothing, and says where', () => {
    const bad = parseRules('r.json', JSON.stringify({ rules: [{ decision: 'maybe' }] }));
    expect(bad.rules).toEqual([]);
    expect(bad.problem).toContain('rules[0].decision');
    expect(parseRules('r.json', '{').problem).toContain('is not JSON');
  });

  it('missing is no rules and no problem', () => {
    expect(loadRules(path.join(rulesDir(), 'none.json'))).toMatchObject({ rules: [], problem: null });
  });
});
