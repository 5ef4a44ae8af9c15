/**
 * The rules file read with its trust checks (real files: a symlink, a file or folder others can
 * write are refused), and the matcher on each field: place, tool, paths inside the root (a link out
 * of it is outside), a URL's host, ask, and dry run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules, parseRules, RulesSource } from '../../src/rules/load.js';
import { judge } from '../../src/rules/match.js';
import type { RequestPlace, RuleRequest } from '../../src/rules/match.js';
import { ruleMeaning } from '../../src/rules/words.js';
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

const PLACE: RequestPlace = {
  box: 'build-1',
  system: 'claude-team',
  run: 'claude-team:shop',
  team: 'shop',
  member: 'worker',
  role: 'implementer',
  agent: 'claude-code',
  root: null,
};

function req(
  tool: string,
  input: Record<string, unknown>,
  place: Partial<RequestPlace> = {},
  cwd: string | null = null,
): RuleRequest {
  return { tool, input, cwd, place: { ...PLACE, ...place } };
}

function rules(...list: Record<string, unknown>[]) {
  const r = parseRules('rules.json', JSON.stringify({ rules: list }));
  expect(r.problem).toBeNull();
  return r.rules;
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

describe('the matcher', () => {
  it('deny wins over allow, then ask; nothing matched is asked', () => {
    const rs = rules(
      { decision: 'allow', tool: 'Bash' },
      { name: 'no push', decision: 'deny', command: 'git push*' },
      { name: 'ask curl', decision: 'ask', command: 'curl *' },
    );
    expect(judge(rs, req('Bash', { command: 'git status' })).acts).toBe('allow');
    expect(judge(rs, req('Bash', { command: 'git status && git push --force' }))).toMatchObject({
      acts: 'deny',
      why: 'no push denies "git push --force"',
    });
    expect(judge(rs, req('Bash', { command: 'curl x' }))).toMatchObject({ acts: null, decision: 'ask' });
    expect(judge(rs, req('Read', { file_path: '/x' }))).toMatchObject({ acts: null, decision: null });
  });

  it('matches the place: a rule naming a member or box matches only there', () => {
    const rs = rules({ decision: 'allow', member: 'worker', box: 'build-*', run: 'claude-team:*' });
    expect(judge(rs, req('Bash', { command: 'ls' })).acts).toBe('allow');
    expect(judge(rs, req('Bash', { command: 'ls' }, { member: 'lead' })).acts).toBeNull();
    expect(judge(rs, req('Bash', { command: 'ls' }, { box: 'laptop' })).acts).toBeNull();
    expect(judge(rs, req('Bash', { command: 'ls' }, { run: null })).acts).toBeNull();
  });

  it("allows a path only inside the run's root or a named folder; a link out of the root is outside", () => {
    const root = tempDir();
    const outside = tempDir();
    fs.mkdirSync(path.join(root, 'src'));
    fs.symlinkSync(outside, path.join(root, 'out'));
    const rs = rules({ decision: 'allow', tool: ['Edit', 'Write'], paths: ['root', outside + '/allowed'] });
    const at = (p: string, cwd: string | null = null) => judge(rs, req('Edit', { file_path: p }, { root }, cwd)).acts;
    expect(at(path.join(root, 'src/a.ts'))).toBe('allow');
    expect(at(path.join(root, 'src/new/deep.ts'))).toBe('allow');
    expect(at('src/a.ts', root)).toBe('allow');
    expect(at('src/a.ts')).toBeNull();
    expect(at(path.join(root, '../etc/passwd'))).toBeNull();
    expect(at(path.join(root, 'out/x'))).toBeNull();
    expect(at(path.join(outside, 'allowed/x'))).toBe('allow');
    expect(judge(rs, req('Edit', { file_path: path.join(root, 'a') }, { root: null })).acts).toBeNull();
  });

  it("matches a URL's host, in any case, and nothing without a URL", () => {
    const rs = rules({ decision: 'allow', tool: 'WebFetch', host: ['docs.python.org', '*.github.com'] });
    expect(judge(rs, req('WebFetch', { url: 'https://DOCS.python.org/3/' })).acts).toBe('allow');
    expect(judge(rs, req('WebFetch', { url: 'https://api.github.com/x' })).acts).toBe('allow');
    expect(judge(rs, req('WebFetch', { url: 'https://github.com.evil.example/' })).acts).toBeNull();
    expect(judge(rs, req('WebFetch', { url: 'not a url' })).acts).toBeNull();
    expect(judge(rs, req('WebFetch', { prompt: 'x' })).acts).toBeNull();
  });

  it('a rule in dry run says what it would do and acts on nothing; the file can be in dry run whole', () => {
    const rs = rules({ name: 'tests', decision: 'allow', command: 'npm test*', dryRun: true });
    const v = judge(rs, req('Bash', { command: 'npm test' }));
    expect(v.acts).toBeNull();
    expect(v.wouldBe).toMatchObject({ decision: 'allow', rule: { name: 'tests' } });
    const file = parseRules('r', JSON.stringify({ dryRun: true, rules: [{ decision: 'deny', tool: 'Bash' }] }));
    expect(judge(file.rules, req('Bash', { command: 'ls' }))).toMatchObject({
      acts: null,
      wouldBe: { decision: 'deny' },
    });
  });

  it('says each rule in words', () => {
    const [r] = rules({
      name: 'edits',
      decision: 'allow',
      tool: 'Edit',
      paths: 'root',
      member: 'worker',
      dryRun: true,
    });
    expect(ruleMeaning(r!)).toBe(
      `edits: allow "Edit" requests with every path it touches inside the run's root, member "worker" — dry run: records what it would do, and the request is asked as before`,
    );
  });
});
