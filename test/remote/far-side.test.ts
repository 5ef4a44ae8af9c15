/**
 * A tampered far side over a real loopback sshd: a script set as the host's `tower` speaks tower's
 * protocol and sends escape sequences, malformed messages, a NUL in a gate id, offers nobody asked
 * for, or nothing at all. This box's runs still show, nothing raw reaches the terminal, and nothing
 * hangs or grows. An answer the box planned bound to a held request is run bound to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostConfig } from '../../src/config/config.js';
import type { Snapshot } from '../../src/model/model.js';
import { CompositeStore } from '../../src/remote/composite-store.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import type { SshLab } from '../helpers/sshd.js';
import { startSshLab } from '../helpers/sshd.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

const FAKE = path.join(import.meta.dirname, '..', 'helpers', 'fake-far-side.mjs');
/** Any C0/C1 control but newline: ESC and BEL begin and end OSC 52 and OSC 0. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let cli: BuiltCli;
let lab: SshLab;
let dir: string;
const stores: CompositeStore[] = [];

beforeAll(async () => {
  cli = await buildCli();
  lab = await startSshLab(['far']);
  dir = tempDir('tower-far-side-');
}, 60_000);

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.stop()));
});

afterAll(() => {
  lab?.remove();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function fakeHost(scene: string): { host: HostConfig; log: string } {
  const log = path.join(dir, `${scene}-${Math.random().toString(16).slice(2)}.log`);
  fs.writeFileSync(log, '');
  return {
    host: {
      name: 'far',
      destination: 'far',
      sshArgs: ['-F', lab.sshConfig],
      tower: `${process.execPath} ${FAKE} ${scene} ${log}`,
    },
    log,
  };
}

function store(host: HostConfig, timeoutSec = 10): CompositeStore {
  const s = new CompositeStore({
    hosts: [host],
    local: null,
    timeoutSec,
    reconnect: false,
    reader: '/nonexistent/tower-reader.js',
  });
  stores.push(s);
  return s;
}

function localEnv(home: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    TMUX: '',
    NO_COLOR: '1',
  };
}

/** A home with a local harness project and a config naming the fake host. */
function home(host: HostConfig, over: Record<string, unknown> = {}) {
  const h = tempDir('tower-far-home-');
  const local = path.join(h, 'projects', 'near');
  writeFile(path.join(local, '.harness', 'config.json'), { checkpoints: { enabled: true, types: [] } });
  writeFile(path.join(local, '.harness', 'checkpoint-ship.md'), '# Checkpoint: ship\n');
  fs.mkdirSync(path.join(h, 'claude'));
  const config = path.join(h, 'config.json');
  writeFile(config, { hosts: [host], hostTimeoutSec: 10, ...over });
  return {
    dir: h,
    args: ['--config', config, '--root', local, '--claude-dir', path.join(h, 'claude'), '-L', uniqueSocketName()],
  };
}

describe('a tampered far side', () => {
  it('cannot reach the terminal or hide this box: status prints every good run, the bad ones as problems, no escape byte', async () => {
    const { host } = fakeHost('hostile');
    const h = home(host);
    try {
      const r = await execa(process.execPath, [cli.bin, 'status', '--json', ...h.args], {
        reject: false,
        env: localEnv(h.dir),
        extendEnv: true,
        stdin: 'ignore',
        timeout: 30_000,
      });
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout) + String(r.stderr)).not.toMatch(RAW);
      const snap = JSON.parse(String(r.stdout)) as Snapshot;
      expect(snap.runs.map((x) => x.id).sort()).toEqual(['far/harness:good', 'harness:near']);
      const good = snap.runs.find((x) => x.id === 'far/harness:good');
      expect(good?.gates[0]?.title).toBe('Deploy');
      expect(good?.gates[0]?.body).toBe('# Body\nline two');
      const problems = snap.problems.map((p) => p.message).join('\n');
      expect(problems).toMatch(/host far: sent a run this tower cannot read \(run 2 "harness:alien"\)/);
      expect(problems).toMatch(/host far: sent a run this tower cannot read \(run 3\)/);
      expect(problems).toContain('far: far problem');

      const text = await execa(process.execPath, [cli.bin, 'status', ...h.args], {
        reject: false,
        env: localEnv(h.dir),
        extendEnv: true,
        stdin: 'ignore',
        timeout: 30_000,
      });
      expect(text.exitCode).toBe(0);
      expect(String(text.stdout)).toContain('near');
      expect(String(text.stdout) + String(text.stderr)).not.toMatch(RAW);
    } finally {
      fs.rmSync(h.dir, { recursive: true, force: true });
    }
  });

  it('keeps the stream after a malformed change, and a NUL in a gate id arrives cleaned', async () => {
    const { host } = fakeHost('hostile');
    const s = store(host);
    await s.start();
    const snap = await waitFor(
      () => {
        const now = s.getSnapshot();
        return (now.runs.find((r) => r.id === 'far/harness:good')?.gates.length ?? 0) === 2 && now;
      },
      10_000,
      { what: 'the change after the malformed one' },
    );
    expect(snap.runs.find((r) => r.id === 'far/harness:good')?.gates.map((g) => g.id)).toEqual(['deploy', 'nulgate']);
    expect(snap.hosts?.[0]?.state).toBe('ok');
    expect(snap.problems.map((p) => p.message).join('\n')).toMatch(/host far: sent changes this tower cannot read/);
    expect(JSON.stringify(snap)).not.toMatch(/\\u001b|\\u0007|\\u0000/);
  });

  it('tower watch with a notify command survives a NUL in a remote gate id and runs the command with it cleaned', async () => {
    const { host } = fakeHost('hostile');
    const out = path.join(dir, `notify-${Date.now()}.txt`);
    const h = home(host, {
      notify: {
        command: `printf '%s|%s\\n' "$TOWER_RUN" "$TOWER_GATE" >> ${out}`,
        bell: false,
        desktop: false,
        title: false,
      },
    });
    const proc = execa(process.execPath, [cli.bin, 'watch', ...h.args], {
      reject: false,
      env: localEnv(h.dir),
      extendEnv: true,
      stdin: 'ignore',
    });
    let stdout = '';
    let stderr = '';
    proc.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    proc.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    try {
      await waitFor(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8').includes('nulgate'), 20_000, {
        what: 'the notify command for the new remote gate',
      });
      expect(fs.readFileSync(out, 'utf8')).toContain('far/harness:good|nulgate');
      expect(proc.exitCode).toBeNull();
      expect(stderr).not.toMatch(/null bytes|Unhandled|TypeError/);
      expect(stdout).not.toMatch(RAW);
    } finally {
      proc.kill('SIGTERM');
      await proc;
      fs.rmSync(h.dir, { recursive: true, force: true });
      fs.rmSync(out, { force: true });
    }
  });

  it('a box that never answers a plan gives a refusal naming it within the host timeout, not a hang', async () => {
    const { host } = fakeHost('silent');
    // Long enough for ssh and the far side to start under load; the plan's silence is what is timed.
    const s = store(host, 5);
    await s.start();
    const link = s.link('far')!;
    // Under load the link may still be connecting: the question is the plan's silence, not the hello's.
    await waitFor(() => link.state.state === 'ok', 20_000, { what: 'the link to be up' });
    const started = Date.now();
    await expect(link.plan({ kind: 'grant', run: 'harness:good', gate: 'deploy' }, false)).rejects.toThrow(
      /far did not answer the plan of grant within 5 s/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);

    const h = home(host, { hostTimeoutSec: 5 });
    try {
      const r = await execa(process.execPath, [cli.bin, 'grant', 'far/harness:good', 'deploy', ...h.args], {
        reject: false,
        env: localEnv(h.dir),
        extendEnv: true,
        stdin: 'ignore',
        timeout: 30_000,
      });
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr)).toMatch(/far did not answer/);
    } finally {
      fs.rmSync(h.dir, { recursive: true, force: true });
    }
  });

  it("runs an answer bound to the held request the box's plan showed, by its id and input hash", async () => {
    const { host, log } = fakeHost('pinned');
    const h = home(host);
    try {
      const r = await execa(
        process.execPath,
        [cli.bin, 'answer', 'far/harness:good', '--member', 'lead', '1', ...h.args],
        { reject: false, env: localEnv(h.dir), extendEnv: true, stdin: 'ignore', timeout: 30_000 },
      );
      expect(String(r.stderr)).toContain('command: touch A_SHOWN.txt');
      expect(r.exitCode).toBe(0);
      // The box plans the answer again when it runs: the run it was sent names the request shown.
      const sent = fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"run"'));
      expect(sent).toHaveLength(1);
      expect(JSON.parse(sent[0]!).request).toMatchObject({
        kind: 'answer',
        run: 'harness:good',
        request: `1764000000-42:${'ab'.repeat(32)}`,
      });
    } finally {
      fs.rmSync(h.dir, { recursive: true, force: true });
    }
  });

  it('offers for requests nobody made are never answered into the box', async () => {
    const { host, log } = fakeHost('offers');
    const s = store(host);
    await s.start();
    await waitFor(() => s.link('far')!.problems.some((p) => p.includes('offered to terminate')), 10_000, {
      what: 'the offers to be seen',
    });
    // The far side reads again after the flood: whatever this side wrote would be in its log by now.
    await new Promise((r) => setTimeout(r, 2500));
    expect(fs.readFileSync(log, 'utf8')).not.toContain('answer-offer');
    expect(s.link('far')!.problems.length).toBeLessThanOrEqual(20);
  });

  it('a box whose tower sends no activity (an older one) shows its members as unknown and says so once', async () => {
    const { host } = fakeHost('silent');
    const s = store(host);
    await s.start();
    const snap = s.getSnapshot();
    expect(snap.runs.find((r) => r.id === 'far/harness:good')?.members[0]).toMatchObject({
      activity: 'unknown',
      activitySource: null,
    });
    const said = snap.problems.filter((p) => p.message.includes('does not send what its agents are doing'));
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toMatch(/^host far: runs an older tower \(0\.1\.0\) that does not send/);
  });
});
