/**
 * `tower rules check|test` on the built CLI: the rules file beside the config read with its trust
 * checks, each rule said in words, a request's decision and why; --help lists what it takes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliSetup } from '../actions/cli-kit.js';
import { buildTower, tower } from '../actions/cli-kit.js';
import { tempDirsPerTest } from '../helpers/fixtures.js';

const tempDir = tempDirsPerTest('tower-rules-cli-');
let bin: string;

beforeAll(async () => {
  bin = await buildTower();
}, 60_000);

/** A home whose config folder holds `rules` as rules.json (mode 0600, folder 0700). */
function setup(rules: unknown): { s: CliSetup; file: string } {
  const home = tempDir();
  const dir = path.join(home, 'config', 'tower');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'rules.json');
  fs.writeFileSync(file, JSON.stringify(rules), { mode: 0o600 });
  return { s: { tower: bin, home, flags: ['--claude-dir', path.join(home, '.claude')] }, file };
}

const RULES = {
  rules: [
    { name: 'tests', decision: 'allow', tool: 'Bash', command: ['npm test*', 'ls*'] },
    { name: 'no rm', decision: 'deny', tool: 'Bash', command: 'rm *' },
  ],
};
const bash = (command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command } });

describe('tower rules', { timeout: 60_000 }, () => {
  it('check says each rule in words; a file others can write is refused (exit 1)', async () => {
    const { s, file } = setup(RULES);
    const ok = await tower(s, ['rules', 'check']);
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toContain(`${file}: 2 rule(s)`);
    expect(ok.stdout).toContain('no rm: deny "Bash" requests with any part of its command matching "rm *"');
    fs.chmodSync(file, 0o666);
    const refused = await tower(s, ['rules', 'check']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toContain('refused, no request is answered by rule');
  });

  it('test says which rule decides a request and why, part by part', async () => {
    const { s } = setup(RULES);
    const denied = await tower(s, ['rules', 'test', '--request', bash('npm test && rm -rf /')]);
    expect(denied.stdout).toContain('command parts: "npm test", "rm -rf /"');
    expect(denied.stdout).toContain('denied by no rm: no rm denies "rm -rf /"');
    const allowed = await tower(s, ['rules', 'test', '--request', bash('npm test && ls -la')]);
    expect(allowed.stdout).toContain('allowed by tests: every part is allowed (tests)');
    const asked = await tower(s, ['rules', 'test', '--request', bash('npm test | sh')]);
    expect(asked.stdout).toContain('asked as before: no rule allows "sh"');
    const none = await tower(s, ['rules', 'test', '--held', '1-2']);
    expect(none).toMatchObject({ exitCode: 1, stdout: expect.stringContaining('no request 1-2 is held now') });
  });

  it('--help lists its verbs and options; a wrong verb is bad usage', async () => {
    const { s } = setup(RULES);
    const help = await tower(s, ['rules', '--help']);
    expect(help.stdout).toContain('Usage: tower rules [options] <verb>');
    expect(help.stdout).toContain('--request <json>');
    expect(help.stdout).toContain('--held <id>');
    expect((await tower(s, ['rules', 'apply'])).exitCode).toBe(2);
  });
});
