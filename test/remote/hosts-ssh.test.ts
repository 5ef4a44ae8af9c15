/**
 * Other build boxes over real OpenSSH: private sshd instances on 127.0.0.1, each box serving its
 * own harness project through `tower serve --stdio`, read by the real tower binary and by the
 * composite store in this process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostConfig } from '../../src/config/config.js';
import { CompositeStore } from '../../src/remote/composite-store.js';
import type { Snapshot } from '../../src/model/model.js';
import { tempDir, writeFile } from '../helpers/box.js';
import { bundle } from '../../scripts/bundle.js';
import { buildCli } from '../helpers/built-cli.js';
import type { BuiltCli } from '../helpers/built-cli.js';
import type { RemoteBox } from '../helpers/remote-box.js';
import { makeRemoteBox } from '../helpers/remote-box.js';
import type { SshLab } from '../helpers/sshd.js';
import { startSshLab } from '../helpers/sshd.js';
import { uniqueSocketName } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

let cli: BuiltCli;
let lab: SshLab;
let dir: string;
let boxA: RemoteBox;
let boxB: RemoteBox;
const stores: CompositeStore[] = [];

beforeAll(async () => {
  cli = await buildCli();
  await bundle(
    cli.dist,
    { 'tower-reader': 'src/cli/reader-main.ts' },
    { splitting: false, minify: true, logLevel: 'error' },
  );
  lab = await startSshLab(['box-a', 'box-b']);
  dir = tempDir('tower-ssh-test-');
  const unique = uniqueSocketName().replace(/^tower-test-/, '');
  boxA = makeRemoteBox(dir, 'a', 'alpha', cli.bin, unique);
  boxB = makeRemoteBox(dir, 'b', 'beta', cli.bin, unique);
}, 60_000);

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.stop()));
  // A test that stopped or killed a box leaves it running again for the next one.
  for (const b of lab.boxes) {
    b.thaw();
    if (!b.child) await b.start();
  }
});

afterAll(() => {
  lab?.remove();
  cli?.remove();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function hosts(): HostConfig[] {
  return [
    { name: 'a', destination: 'box-a', sshArgs: ['-F', lab.sshConfig], tower: boxA.tower },
    { name: 'b', destination: 'box-b', sshArgs: ['-F', lab.sshConfig], tower: boxB.tower },
  ];
}

function store(h: HostConfig[] = hosts(), timeoutSec = 10, reader = '/nonexistent/tower-reader.js'): CompositeStore {
  const s = new CompositeStore({ hosts: h, local: null, timeoutSec, reconnect: true, reader });
  stores.push(s);
  return s;
}

const run = (snap: Snapshot, id: string) => snap.runs.find((r) => r.id === id);
const host = (snap: Snapshot, name: string) => snap.hosts?.find((h) => h.name === name);
const checkpoints = (snap: Snapshot, id: string) =>
  run(snap, id)
    ?.gates.filter((g) => g.state === 'pending')
    .map((g) => g.id)
    .sort() ?? [];

/** The local tower's environment: its own state and config dirs. */
function localEnv(home: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    TMUX: '',
    NO_COLOR: '1',
  };
}

async function tower(home: string, args: string[]) {
  const r = await execa(process.execPath, [cli.bin, ...args], {
    reject: false,
    env: localEnv(home),
    extendEnv: true,
    stdin: 'ignore',
    timeout: 30_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function configFile(home: string, over: Record<string, unknown> = {}): string {
  const file = path.join(home, 'config.json');
  writeFile(file, { hosts: hosts(), hostTimeoutSec: 10, ...over });
  return file;
}

describe('every box in one tower, over ssh', () => {
  it('status --json holds the runs of this box and of both hosts, each with its host', async () => {
    const home = tempDir('tower-ssh-home-');
    try {
      const local = path.join(home, 'projects', 'gamma');
      writeFile(path.join(local, '.harness', 'config.json'), { checkpoints: { enabled: true, types: [] } });
      const claude = path.join(home, 'claude');
      fs.mkdirSync(claude);
      const r = await tower(home, [
        'status',
        '--json',
        '--config',
        configFile(home),
        '--root',
        local,
        '--claude-dir',
        claude,
        '-L',
        uniqueSocketName(),
      ]);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const snap = JSON.parse(r.stdout) as Snapshot;
      expect(snap.hosts?.map((h) => [h.name, h.state])).toEqual([
        ['a', 'ok'],
        ['b', 'ok'],
      ]);
      expect(run(snap, 'harness:gamma')?.host).toBeNull();
      expect(run(snap, 'a/harness:alpha')).toMatchObject({ host: 'a', root: boxA.root });
      expect(run(snap, 'b/harness:beta')).toMatchObject({ host: 'b', root: boxB.root });
      expect(checkpoints(snap, 'b/harness:beta')).toEqual(['deploy']);

      const only = JSON.parse(
        (
          await tower(home, [
            'status',
            '--json',
            '--config',
            configFile(home),
            '--no-local',
            '--root',
            local,
            '--claude-dir',
            claude,
          ])
        ).stdout,
      ) as Snapshot;
      expect(only.runs.map((x) => x.id).sort()).toEqual(['a/harness:alpha', 'b/harness:beta']);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a file written on a box reaches this tower as a change on the stream', async () => {
    const s = store();
    await s.start();
    expect(checkpoints(s.getSnapshot(), 'a/harness:alpha')).toEqual(['deploy']);
    const started = Date.now();
    boxA.openCheckpoint('release');
    const snap = await waitFor(
      () => {
        const now = s.getSnapshot();
        return checkpoints(now, 'a/harness:alpha').includes('release') && now;
      },
      5000,
      { what: 'the new checkpoint of box a' },
    );
    // The contract is one second; the bound here is loose because the suite shares two cores.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run(snap, 'b/harness:beta')?.stale).toBeUndefined();
    fs.rmSync(path.join(boxA.stateDir, 'checkpoint-release.md'));
  });

  it('a grant on a remote run writes that box’s file, with audit lines on both sides', async () => {
    const home = tempDir('tower-ssh-home-');
    try {
      boxB.openCheckpoint('ship');
      const cfg = configFile(home);
      const dry = await tower(home, ['grant', 'b/harness:beta', 'ship', '--dry-run', '--config', cfg, '--no-local']);
      expect(dry.exitCode).toBe(0);
      expect(dry.stdout).toContain(path.join(boxB.stateDir, 'checkpoint-ship.md.granted'));
      expect(fs.existsSync(path.join(boxB.stateDir, 'checkpoint-ship.md.granted'))).toBe(false);

      const r = await tower(home, ['grant', 'b/harness:beta', 'ship', '--config', cfg, '--no-local']);
      expect(r.stderr + r.stdout).toContain('ship');
      expect(r.exitCode).toBe(0);
      expect(fs.readFileSync(path.join(boxB.stateDir, 'checkpoint-ship.md.granted'), 'utf8')).toMatch(/^granted at /);
      const local = fs
        .readFileSync(path.join(home, 'state', 'tower', 'audit.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(local.at(-1)).toMatchObject({ action: 'grant', run: 'b/harness:beta', outcome: 'done', remote: 'b' });
      const remote = fs
        .readFileSync(path.join(boxB.xdgState, 'tower', 'audit.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(remote.at(-1)).toMatchObject({ action: 'grant', run: 'harness:beta', outcome: 'done' });

      const readonly = await tower(home, [
        'grant',
        'b/harness:beta',
        'ship',
        '--dry-run',
        '--readonly',
        '--config',
        cfg,
        '--no-local',
      ]);
      expect(readonly.exitCode).toBe(1);
      expect(readonly.stderr).toContain('read-only mode');

      const again = await tower(home, ['grant', 'b/harness:beta', 'ship', '--config', cfg, '--no-local']);
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toMatch(/refused/);
    } finally {
      for (const f of ['checkpoint-ship.md', 'checkpoint-ship.md.granted'])
        fs.rmSync(path.join(boxB.stateDir, f), { force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('tower watch follows every box, with the runs of a host under its name', async () => {
    const home = tempDir('tower-ssh-home-');
    const proc = execa(process.execPath, [cli.bin, 'watch', '--config', configFile(home), '--no-local'], {
      reject: false,
      env: localEnv(home),
      extendEnv: true,
      stdin: 'ignore',
    });
    let out = '';
    proc.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
    try {
      const events = () =>
        out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await waitFor(() => events().some((e) => e.event === 'gate-opened' && e.run === 'b/harness:beta'), 20_000, {
        what: 'the first events of box b',
      });
      boxA.openCheckpoint('watched');
      await waitFor(
        () => events().some((e) => e.event === 'gate-opened' && e.run === 'a/harness:alpha' && e.gate === 'watched'),
        10_000,
        { what: 'a new gate on box a' },
      );
    } finally {
      proc.kill('SIGTERM');
      await proc;
      fs.rmSync(path.join(boxA.stateDir, 'checkpoint-watched.md'), { force: true });
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a box that goes down is unreachable with its runs kept stale, and recovers when it is back', async () => {
    const s = store();
    await s.start();
    expect(host(s.getSnapshot(), 'a')?.state).toBe('ok');
    lab.box('box-a').kill();
    const down = await waitFor(
      () => {
        const snap = s.getSnapshot();
        return host(snap, 'a')?.state === 'unreachable' && snap;
      },
      20_000,
      { what: 'box a unreachable' },
    );
    expect(host(down, 'a')?.error).toBeTruthy();
    expect(run(down, 'a/harness:alpha')?.stale).toBe(true);
    expect(host(down, 'b')?.state).toBe('ok');
    expect(run(down, 'b/harness:beta')?.stale).toBeUndefined();
    expect(down.problems.some((p) => p.message.startsWith('host a: unreachable since'))).toBe(true);

    await lab.box('box-a').start();
    const back = await waitFor(
      () => {
        const snap = s.getSnapshot();
        return host(snap, 'a')?.state === 'ok' && snap;
      },
      30_000,
      { what: 'box a back' },
    );
    expect(run(back, 'a/harness:alpha')?.stale).toBeUndefined();
  }, 60_000);

  it('a box whose sshd is stopped never holds up the other box', async () => {
    lab.box('box-a').freeze();
    const s = store(hosts(), 4);
    const started = s.start();
    const bOk = await waitFor(() => host(s.getSnapshot(), 'b')?.state === 'ok', 10_000, {
      what: 'box b ok while a is stopped',
    });
    expect(bOk).toBe(true);
    expect(host(s.getSnapshot(), 'a')?.state).toBe('connecting');
    boxB.openCheckpoint('frozen-neighbour');
    await waitFor(() => checkpoints(s.getSnapshot(), 'b/harness:beta').includes('frozen-neighbour'), 5000, {
      what: 'box b updating',
    });
    await started;
    const a = host(s.getSnapshot(), 'a');
    expect(a?.state).toBe('unreachable');
    expect(a?.error).toMatch(/sent nothing within 4 s|timed out/);
    fs.rmSync(path.join(boxB.stateDir, 'checkpoint-frozen-neighbour.md'));
  }, 30_000);

  it('a connection whose sshd stops mid-stream is detected by keepalives, the other box keeps updating', async () => {
    // The host's own ssh options come first and win: keepalives every second, two unanswered give up
    // (tower's own are every 5 s, three: ~15-20 s to tell).
    const quick = hosts().map((h) =>
      h.name === 'a'
        ? { ...h, sshArgs: ['-o', 'ServerAliveInterval=1', '-o', 'ServerAliveCountMax=2', ...h.sshArgs] }
        : h,
    );
    const s = store(quick);
    await s.start();
    lab.box('box-a').freeze(true);
    boxB.openCheckpoint('keepalive');
    await waitFor(() => checkpoints(s.getSnapshot(), 'b/harness:beta').includes('keepalive'), 5000, {
      what: 'box b updating',
    });
    await waitFor(() => host(s.getSnapshot(), 'a')?.state === 'unreachable', 40_000, {
      what: 'box a unreachable after keepalives',
    });
    expect(run(s.getSnapshot(), 'a/harness:alpha')?.stale).toBe(true);
    fs.rmSync(path.join(boxB.stateDir, 'checkpoint-keepalive.md'));
  }, 60_000);
});

describe('a box without tower', () => {
  it('gets this tower’s own reader over the same connection, and actions work through it', async () => {
    // The host's command line names `tower`, which that box does not have on its PATH.
    const bare = boxA.tower.replace(`${process.execPath} ${cli.bin}`, 'tower');
    expect(bare).toMatch(/ tower --root /);
    const s = store(
      [{ name: 'bare', destination: 'box-a', sshArgs: ['-F', lab.sshConfig], tower: bare }],
      20,
      path.join(cli.dist, 'tower-reader.js'),
    );
    await s.start();
    const snap = s.getSnapshot();
    expect(host(snap, 'bare')).toMatchObject({ state: 'ok', error: null });
    expect(checkpoints(snap, 'bare/harness:alpha')).toEqual(['deploy']);
    const link = s.link('bare');
    const plan = await link?.plan({ kind: 'grant', run: 'harness:alpha', gate: 'deploy' }, true);
    expect(plan?.refusal).toBeNull();
    expect(plan?.effects.map((e) => e.text).join('\n')).toContain(
      path.join(boxA.stateDir, 'checkpoint-deploy.md.granted'),
    );
  });
});

describe('hosts that refuse', () => {
  it('a refused key is a clear error at once, not a prompt or a hang', async () => {
    const refusing = await startSshLab(['box-r'], { authorize: false });
    const home = tempDir('tower-ssh-home-');
    try {
      const cfg = path.join(home, 'config.json');
      writeFile(cfg, {
        hosts: [{ name: 'r', destination: 'box-r', sshArgs: ['-F', refusing.sshConfig], tower: boxA.tower }],
      });
      const started = Date.now();
      const r = await tower(home, ['status', '--json', '--config', cfg, '--no-local']);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(r.exitCode).toBe(0);
      const snap = JSON.parse(r.stdout) as Snapshot;
      expect(snap.hosts?.[0]).toMatchObject({ name: 'r', state: 'unreachable' });
      expect(snap.hosts?.[0]?.error).toMatch(/refused the login .*authorized_keys/);
      const text = await tower(home, ['status', '--config', cfg, '--no-local']);
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toMatch(/Hosts: r unreachable since \d\d:\d\d:\d\d \(box-r refused the login/);
      // An action on a run of that box says what is wrong with the box, not "no run matches".
      const grant = await tower(home, ['grant', 'r/harness:app', 'deploy', '--config', cfg, '--no-local']);
      expect(grant.exitCode).toBe(1);
      expect(grant.stderr).toMatch(/refused: r is unreachable: box-r refused the login/);
    } finally {
      refusing.remove();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a box without tower says how to install it; a different protocol says so', async () => {
    const hello = JSON.stringify({ type: 'hello', protocol: 99, tower: '9.0.0', hostname: 'x', tmux: [] });
    const s = store([
      { name: 'bare', destination: 'box-a', sshArgs: ['-F', lab.sshConfig], tower: 'tower-is-not-installed-here' },
      {
        name: 'future',
        destination: 'box-b',
        sshArgs: ['-F', lab.sshConfig],
        tower: `printf '%s\\n' '${hello}'; sleep 1; true`,
      },
    ]);
    await s.start();
    const snap = s.getSnapshot();
    expect(host(snap, 'bare')).toMatchObject({ state: 'unreachable' });
    expect(host(snap, 'bare')?.error).toMatch(/install it there/);
    expect(host(snap, 'future')?.error).toMatch(/protocol 99, this tower speaks 1/);
  });
});
