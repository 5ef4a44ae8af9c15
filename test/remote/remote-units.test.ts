/** The pure parts of reaching other boxes: host names, ssh arguments and errors, the stream's diffs, config. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config-schema.js';
import type { HostConfig } from '../../src/config/config.js';
import { emptyRun } from '../../src/model/model.js';
import type { Snapshot } from '../../src/model/model.js';
import { HostRunMapper, hostProblem, splitHostRunId } from '../../src/remote/host-runs.js';
import { hostNameOf, resolveHosts } from '../../src/config/hosts.js';
import { lineSplitter } from '../../src/remote/lines.js';
import { applyChanges, decodeLine, diffSnapshots } from '../../src/remote/protocol.js';
import { ControlDir, describeSshFailure, shellQuote, sshArgv } from '../../src/remote/ssh.js';

const host: HostConfig = {
  name: 'build-1',
  destination: 'op@build-1',
  sshArgs: ['-F', '/cfg'],
  tower: 'tower --root /srv',
};

describe('hosts', () => {
  it('names a bare destination by its host part and keeps names distinct', () => {
    expect(hostNameOf('op@build-1.lan')).toBe('build-1.lan');
    expect(hostNameOf('ssh://op@box:2222')).toBe('box');
    const hosts = resolveHosts([host], ['build-1', 'op@build-1', 'a@x', 'b@x']);
    expect(hosts.map((h) => h.name)).toEqual(['build-1', 'x', 'x-2']);
    expect(hosts[1]).toMatchObject({ destination: 'a@x', tower: 'tower', sshArgs: [] });
  });

  it('are validated in the config with the key named', () => {
    expect(ConfigSchema.safeParse({ hosts: [{ name: 'a b', destination: 'x' }] }).success).toBe(false);
    expect(ConfigSchema.safeParse({ hosts: [{ name: 'a', destination: 'x', port: 22 }] }).success).toBe(false);
    expect(ConfigSchema.parse({ hosts: [{ name: 'a', destination: 'x' }] }).hosts[0]).toEqual({
      name: 'a',
      destination: 'x',
      sshArgs: [],
      tower: 'tower',
    });
    expect(ConfigSchema.parse({}).local).toBe(true);
  });
});

describe('ssh', () => {
  it('never prompts, multiplexes through a private socket and keeps the connection alive', () => {
    const argv = sshArgv(host, '/tmp/tower-ssh-x/h0', 7, 'tower serve --stdio');
    expect(argv.slice(0, 2)).toEqual(['-F', '/cfg']);
    for (const o of [
      'BatchMode=yes',
      'ControlMaster=auto',
      'ControlPath=/tmp/tower-ssh-x/h0',
      'ServerAliveInterval=5',
      'ConnectTimeout=7',
    ])
      expect(argv).toContain(o);
    expect(argv.slice(-4)).toEqual(['-T', '--', 'op@build-1', 'tower serve --stdio']);
    expect(sshArgv(host, '/d', 5, 'x', { tty: true })).toContain('-t');
  });

  it('keeps control socket paths short enough for a unix socket, whatever the temp dir', () => {
    const dir = new ControlDir(`/tmp/${'long-temp-dir-'.repeat(6)}`);
    try {
      expect(dir.path.startsWith('/tmp/tower-ssh-')).toBe(true);
      // ssh adds a 17-byte suffix while it sets the socket up; the limit is 104 on some systems.
      expect(dir.socketFor(99).length + 18).toBeLessThan(104);
      expect(fs.statSync(dir.path).mode & 0o777).toBe(0o700);
    } finally {
      dir.dispose();
    }
    expect(fs.existsSync(dir.path)).toBe(false);
  });

  it('says what went wrong and what to do', () => {
    expect(describeSshFailure(host, 'op@build-1: Permission denied (publickey).\n', 255)).toMatch(
      /refused the login .*ssh-agent/,
    );
    expect(describeSshFailure(host, 'Host key verification failed.\n', 255)).toMatch(/run "ssh op@build-1" once/);
    expect(describeSshFailure(host, 'ssh: connect to host build-1 port 22: Connection refused\n', 255)).toMatch(
      /connection refused/,
    );
    expect(describeSshFailure(host, 'bash: line 1: tower: command not found\n', 127)).toMatch(/npm install -g/);
    expect(describeSshFailure(host, '', 255)).toBe('ssh to op@build-1 exited 255');
  });

  it('quotes words for the remote shell', () => {
    expect(shellQuote('%3')).toBe('%3');
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('the stream', () => {
  const a = emptyRun('harness', 'a', '/a', '/a/.harness');
  const b = emptyRun('harness', 'b', '/b', '/b/.harness');
  const c = emptyRun('sage', 'c', '/c', '/c/.sage/state');
  const prev: Snapshot = { version: 1, generatedAt: 't0', runs: [a, b], problems: [] };

  it('sends only what changed and rebuilds the same snapshot', () => {
    const b2 = { ...b, status: 'waiting' as const };
    const next: Snapshot = { version: 1, generatedAt: 't1', runs: [c, b2], problems: [{ file: null, message: 'x' }] };
    const changes = diffSnapshots(prev, next);
    expect(changes.upsert.map((r) => r.id)).toEqual(['sage:c', 'harness:b']);
    expect(changes.remove).toEqual(['harness:a']);
    expect(applyChanges(prev, JSON.parse(JSON.stringify(changes)) as typeof changes)).toEqual(next);
  });

  it('sends and applies a change that keeps the list in place: only the changed run, the others keep their objects', () => {
    const prev: Snapshot = { version: 1, generatedAt: 't0', runs: [a, b, c], problems: [] };
    const b2 = { ...b, status: 'waiting' as const };
    const changes = diffSnapshots(prev, { ...prev, generatedAt: 't1', runs: [a, b2, c] });
    expect(changes).toEqual({
      type: 'changes',
      generatedAt: 't1',
      upsert: [b2],
      remove: [],
      order: ['harness:a', 'harness:b', 'sage:c'],
    });
    const next = applyChanges(prev, JSON.parse(JSON.stringify(changes)) as typeof changes);
    expect(next.runs.map((r) => r.status)).toEqual(['unknown', 'waiting', 'unknown']);
    expect(next.runs[0]).toBe(a);
    expect(next.runs[2]).toBe(c);
    // A run sent but not in the order is not shown, in place as in a reordering.
    const stray = { ...emptyRun('harness', 'x', '/x', '/x/.harness') };
    expect(applyChanges(prev, { ...changes, upsert: [stray] }).runs.map((r) => r.id)).toEqual([
      'harness:a',
      'harness:b',
      'sage:c',
    ]);
  });

  it('splits lines across chunks and ignores what is not a message', () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    feed('{"type":"a"}\n{"ty');
    feed('pe":"b"}\nnoise\n');
    expect(lines.map(decodeLine)).toEqual([{ type: 'a' }, { type: 'b' }, null]);
  });

  it('shows a host’s runs under its name, stale while it is away, keeping objects that did not change', () => {
    const m = new HostRunMapper('b1');
    const [r1] = m.map([a], false);
    expect(r1).toMatchObject({ id: 'b1/harness:a', host: 'b1' });
    expect(m.map([a], false)[0]).toBe(r1);
    expect(m.map([a], true)[0]).toMatchObject({ stale: true });
    expect(splitHostRunId('b1/harness:a', ['b1'])).toEqual({ host: 'b1', id: 'harness:a' });
    expect(splitHostRunId('harness:a/x', ['b1'])).toBeNull();
    expect(
      hostProblem({ name: 'b1', state: 'unreachable', since: '2026-01-01T10:11:12.000Z', error: 'refused' })?.message,
    ).toBe('host b1: unreachable since 10:11:12 — refused');
  });
});
