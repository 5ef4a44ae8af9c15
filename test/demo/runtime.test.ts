/** The agents' runtime: argument parsing, the sandbox guard on every write, safe reads, the shared lock. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentRuntime, parseAgentArgs } from '../../src/demo/agents/runtime.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(() => removeTempDirs());

function runtime(sandbox: string): AgentRuntime {
  return new AgentRuntime(parseAgentArgs(['--sandbox', sandbox, '--name', 'worker-1']));
}

describe('parseAgentArgs', () => {
  it('reads the flags of a role, with the speed defaulting to 1', () => {
    const o = parseAgentArgs([
      '--sandbox',
      '/tmp/s',
      '--name',
      'team-lead',
      '--phase',
      '2',
      '--climb',
      '--after',
      '30',
      '--speed',
      '20',
    ]);
    expect(o).toMatchObject({ sandbox: '/tmp/s', name: 'team-lead', phase: '2', climb: true, after: 30, speed: 20 });
    expect(parseAgentArgs(['--sandbox', '/tmp/s']).speed).toBe(1);
    expect(parseAgentArgs(['--sandbox', '/tmp/s', '--speed', 'fast']).speed).toBe(1);
    expect(parseAgentArgs(['--sandbox', '/tmp/s', '--speed=-3']).speed).toBe(1);
  });

  it('refuses a missing sandbox and unknown flags', () => {
    expect(() => parseAgentArgs(['--name', 'x'])).toThrow(/--sandbox/);
    expect(() => parseAgentArgs(['--sandbox', '/tmp/s', '--home', '/'])).toThrow();
  });
});

describe('AgentRuntime', () => {
  it('writes atomically inside the sandbox and refuses any path outside it', () => {
    const dir = tempDir();
    const sandbox = path.join(dir, 'sandbox');
    fs.mkdirSync(sandbox);
    const rt = runtime(sandbox);
    rt.writeJson(path.join(sandbox, 'a', 'b.json'), { ok: true });
    expect(JSON.parse(fs.readFileSync(path.join(sandbox, 'a', 'b.json'), 'utf8'))).toEqual({ ok: true });
    expect(fs.readdirSync(path.join(sandbox, 'a'))).toEqual(['b.json']);
    for (const outside of [
      path.join(dir, 'escape.json'),
      path.join(sandbox, '..', 'escape.json'),
      sandbox,
      '/etc/tower-demo.json',
    ]) {
      expect(() => rt.writeJson(outside, {})).toThrow(/outside the sandbox/);
      expect(() => rt.writeText(outside, 'x')).toThrow(/outside the sandbox/);
      expect(() => rt.appendText(outside, 'x')).toThrow(/outside the sandbox/);
    }
    expect(fs.existsSync(path.join(dir, 'escape.json'))).toBe(false);
  });

  it('refuses a write through a symlinked directory that leads out of the sandbox', () => {
    const dir = tempDir();
    const sandbox = path.join(dir, 'sandbox');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(sandbox);
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(sandbox, 'link'));
    const rt = runtime(sandbox);
    expect(() => rt.writeJson(path.join(sandbox, 'link', 'x.json'), {})).toThrow(/outside the sandbox/);
    expect(() => rt.appendText(path.join(sandbox, 'link', 'new', 'run.log'), 'x')).toThrow(/outside the sandbox/);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('writes into a sandbox named through a symlink', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'real'));
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    runtime(path.join(dir, 'alias')).writeJson(path.join(dir, 'alias', 'ok.json'), { ok: true });
    expect(fs.existsSync(path.join(dir, 'real', 'ok.json'))).toBe(true);
  });

  it('reads a missing, empty or garbled file as null instead of throwing', () => {
    const sandbox = tempDir();
    const rt = runtime(sandbox);
    fs.writeFileSync(path.join(sandbox, 'empty.json'), '');
    fs.writeFileSync(path.join(sandbox, 'half.json'), '{"status": "execu');
    fs.writeFileSync(path.join(sandbox, 'list.json'), '[1, 2]');
    for (const f of ['missing.json', 'empty.json', 'half.json', 'list.json'])
      expect(rt.readObject(path.join(sandbox, f))).toBeNull();
    expect(rt.readText(path.join(sandbox, 'missing.json'))).toBeNull();
  });

  it('scales demo time by its speed', () => {
    const rt = new AgentRuntime(parseAgentArgs(['--sandbox', '/tmp/s', '--speed', '4']));
    expect(rt.scaled(4000)).toBe(1000);
  });

  it('waits for a held lock, breaks a stale one, and releases its own', async () => {
    const sandbox = tempDir();
    const rt = runtime(sandbox);
    const target = path.join(sandbox, 'state.json');
    const lockDir = path.join(sandbox, '.locks', 'state.json');
    fs.mkdirSync(lockDir, { recursive: true });
    let ran = false;
    const held = rt.withLock(target, () => (ran = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(ran).toBe(false);
    fs.rmSync(lockDir, { recursive: true });
    await held;
    expect(ran).toBe(true);
    expect(fs.existsSync(lockDir)).toBe(false);

    // A lock left by an agent that died mid-write.
    fs.mkdirSync(lockDir, { recursive: true });
    const old = new Date(Date.now() - 10_000);
    fs.utimesSync(lockDir, old, old);
    expect(await rt.withLock(target, () => 42)).toBe(42);
    expect(fs.existsSync(lockDir)).toBe(false);
  });
});
