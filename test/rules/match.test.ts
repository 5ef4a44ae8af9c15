/**
 * The matcher on each field: place, tool, paths inside the root (a link out of it is outside, real
 * links on real folders), a URL's host, ask, dry run; and each rule said in words.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRules } from '../../src/rules/load.js';
import { judge } from '../../src/rules/match.js';
import type { RequestPlace, RuleRequest } from '../../src/rules/match.js';
import { ruleMeaning } from '../../src/rules/words.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-rules-');

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
