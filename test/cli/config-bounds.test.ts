/**
 * Every duration in the config is bounded to what timers hold and what makes sense, and an invalid
 * `keys` section is refused by every command, each with exit 2 and a message naming the key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/cli.js';
import { ConfigError, defaultConfig, loadConfig } from '../../src/config/config.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { uniqueSocketName } from '../helpers/tmux.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = tempDir('tower-config-');
  file = path.join(dir, 'config.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function problemOf(config: object): Promise<string> {
  writeFile(file, config);
  try {
    await loadConfig(file);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return '';
}

describe('a config error says what would be right', () => {
  it('names the key a misspelt one was meant to be, else the known keys, and the allowed values of a choice', async () => {
    expect(await problemOf({ polIntervalMs: 500 })).toBe(
      `config ${file}: (top level): unknown key "polIntervalMs" (did you mean "pollIntervalMs"?)`,
    );
    expect(await problemOf({ pollIntervalMS: 500 })).toContain(
      'unknown key "pollIntervalMS" (did you mean "pollIntervalMs"?)',
    );
    expect(await problemOf({ zzzqq: 1 })).toMatch(/unknown key "zzzqq"; the keys are .*\bpollIntervalMs\b/);
    expect(await problemOf({ notify: { desktop: 'yes' } })).toContain(
      'notify.desktop: must be one of "osc9", "osc777", false',
    );
    expect(await problemOf({ notify: { events: ['gate-open'] } })).toContain(
      'notify.events.0: must be one of "gate-opened", "checkpoint-timeout", "member-died", "member-waiting"',
    );
    expect(await problemOf({ hosts: [{ name: 'b', destination: 'b', shhArgs: [] }] })).toContain(
      'hosts.0: unknown key "shhArgs" (did you mean "sshArgs"?)',
    );
    // A misspelt required key is one mistake, said once: not also as the key that is missing.
    expect(await problemOf({ hosts: [{ name: 'b', destinaton: 'b' }] })).toBe(
      `config ${file}: hosts.0: unknown key "destinaton" (did you mean "destination"?)`,
    );
    expect(await problemOf({ hosts: [{ name: 'b' }] })).toBe(`config ${file}: hosts.0.destination: is missing`);
  });

  it('says the line and column of a JSON mistake', async () => {
    fs.writeFileSync(file, '{\n  "pollIntervalMs": 500,\n}\n');
    await expect(loadConfig(file)).rejects.toThrow(
      `config ${file}: invalid JSON at line 3, column 1: Expected double-quoted property name`,
    );
  });
});

const DURATIONS = [
  'checkpointTimeoutSec',
  'stragglerAfterSec',
  'killGraceSec',
  'rehydrateTimeoutSec',
  'staleHandoffMinutes',
  'heartbeatStaleSec',
  'pollIntervalMs',
  'hostTimeoutSec',
] as const;

describe('config durations', () => {
  it('refuses a value timers cannot hold, naming the key and the bound', async () => {
    expect(await problemOf({ pollIntervalMs: 3e9 })).toMatch(/pollIntervalMs: at most 60000 ms/);
    for (const key of DURATIONS) {
      const msg = await problemOf({ [key]: 3e9 });
      expect(msg, key).toContain(`${key}: at most`);
      expect(await problemOf({ [key]: 0 }), key).toContain(`${key}: at least`);
      expect(await problemOf({ [key]: -5 }), key).toContain(key);
    }
    expect(await problemOf({ pollIntervalMs: 50 })).toContain('pollIntervalMs: at least 100 ms');
    // The notify command's time limit too (3,000,000 s would become a 1 ms timer).
    expect(await problemOf({ notify: { timeoutSec: 3_000_000 } })).toContain('notify.timeoutSec: at most 3600 s');
    expect(await problemOf({ hostTimeoutSec: 3_000_000 })).toContain('hostTimeoutSec: at most 3600 s');
  });

  it('accepts the defaults and the bounds themselves', async () => {
    const d = defaultConfig();
    writeFile(file, Object.fromEntries(DURATIONS.map((k) => [k, d[k]])));
    expect((await loadConfig(file)).config.pollIntervalMs).toBe(2000);
    writeFile(file, { pollIntervalMs: 60_000, checkpointTimeoutSec: 86_400, killGraceSec: 0.1 });
    expect((await loadConfig(file)).config.checkpointTimeoutSec).toBe(86_400);
  });
});

describe('an invalid keys section', () => {
  let stderr: string;
  beforeEach(() => {
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('is refused by loadConfig itself, naming the key', async () => {
    expect(await problemOf({ keys: { 'no-such-command': ['x'] } })).toContain('keys: "no-such-command" is no command');
    expect(await problemOf({ keys: { grnat: ['x'] } })).toBe(
      `config ${file}: keys: "grnat" is no command; did you mean "grant"?`,
    );
    expect(await problemOf({ keys: { grant: ['j'] } })).toMatch(/keys: "j" would mean both/);
  });

  it('makes every command exit 2 with the key named', async () => {
    writeFile(file, { keys: { grant: ['j'] } });
    const common = ['--config', file, '-L', uniqueSocketName(), '--claude-dir', dir];
    for (const argv of [
      ['status'],
      ['status', '--json'],
      ['grant', 'x', 'y'],
      ['request', 'x', 'y'],
      ['checkpoint', 'x'],
      ['rehydrate', 'x'],
      ['terminate', 'x'],
      ['watch'],
    ]) {
      stderr = '';
      expect(await main([...argv, ...common]), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/^tower: config .*keys: "j" would mean both/);
    }
  });
});

describe('checkpoint --timeout', () => {
  it('is bounded like the config key', async () => {
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
    try {
      writeFile(file, {});
      expect(await main(['checkpoint', 'x', '--timeout', '3e9', '--config', file, '-L', uniqueSocketName()])).toBe(2);
      expect(stderr).toContain('--timeout must be a number of seconds above 0 and at most 86400');
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('contradictory settings', () => {
  let stderr: string;
  beforeEach(() => {
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuse watch --auto-checkpoint in read-only mode at the start, by flag or by config', async () => {
    const common = ['-L', uniqueSocketName(), '--claude-dir', dir, '--root', dir];
    expect(await main(['watch', '--auto-checkpoint', '--readonly', ...common])).toBe(2);
    expect(stderr).toContain('tower: --auto-checkpoint runs the checkpoint cycle, and read-only mode');
    stderr = '';
    writeFile(file, { readonly: true });
    expect(await main(['watch', '--auto-checkpoint', '--config', file, ...common])).toBe(2);
    expect(stderr).toContain('give one of the two');
  });
});
