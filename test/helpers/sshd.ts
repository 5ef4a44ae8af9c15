/**
 * Private OpenSSH servers for tests: each "box" is an sshd on 127.0.0.1 at a free high port, with
 * a throwaway host key, an authorized key and its own config, all in a temp dir. The client side
 * gets an ssh_config (`-F`) naming every box, with its own known_hosts. Boxes can be killed (the
 * listener and every connection it forked, by pid), frozen (SIGSTOP), thawed and started again.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { tempDir } from './box.js';
import { stopAfterFile } from './leftovers.js';
import { waitFor } from './wait-for.js';

export const SSHD = '/usr/sbin/sshd';

/** Whether the machine has an sshd to start (CI installs openssh-server). */
export function hasSshd(): boolean {
  return fs.existsSync(SSHD);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Every descendant of a pid (per-connection sshd processes and the shells under them), from /proc. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function commOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/** One private sshd. */
export class SshBox {
  child: ChildProcess | null = null;
  private log = '';
  private frozen: number[] = [];

  constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  get config(): string {
    return path.join(this.dir, 'sshd_config');
  }

  /** Starts the listener and waits until it accepts connections. */
  async start(): Promise<void> {
    this.log = '';
    const child = spawn(SSHD, ['-D', '-e', '-f', this.config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (d: Buffer) => {
      this.log = (this.log + d.toString()).slice(-4000);
    });
    this.child = child;
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          if (child.exitCode !== null) resolve(false);
          const s = net.connect(this.port, '127.0.0.1');
          s.once('data', () => {
            s.destroy();
            resolve(true);
          });
          s.once('error', () => resolve(false));
        }),
      10_000,
      { intervalMs: 50, what: `sshd ${this.name} on port ${this.port} (${this.log})` },
    );
  }

  /** Kills the listener and every connection it holds, by pid: the box is down. */
  kill(): void {
    const pid = this.child?.pid;
    if (!pid) return;
    // The connections first: once the listener is gone they are re-parented and harder to find.
    const all = [...descendants(pid), pid];
    for (const p of all) signal(p, 'SIGKILL');
    this.child = null;
  }

  /** Freezes the listener, and with `connections` every sshd of its open connections too. */
  freeze(connections = false): void {
    const pid = this.child?.pid;
    if (!pid) return;
    const sshds = connections ? descendants(pid).filter((p) => commOf(p) === 'sshd') : [];
    for (const p of [pid, ...sshds]) signal(p, 'SIGSTOP');
    this.frozen = [pid, ...sshds];
  }

  thaw(): void {
    for (const p of this.frozen) signal(p, 'SIGCONT');
    this.frozen = [];
  }

  /** Stops everything (used by cleanup). */
  stop(): void {
    this.thaw();
    this.kill();
  }
}

/** Two or more boxes and the client's ssh_config naming them. */
export interface SshLab {
  dir: string;
  /** The client's config: pass `-F <sshConfig>` to ssh. */
  sshConfig: string;
  boxes: SshBox[];
  box(name: string): SshBox;
  /** Kills every sshd (listeners and connections) and removes the temp dir. */
  remove(): void;
}

/** Creates and starts a box per name, each with its own host key, behind one client key. */
export async function startSshLab(names: readonly string[], opts: { authorize?: boolean } = {}): Promise<SshLab> {
  // sshd runs its unprivileged child in this empty dir; openssh-server's service normally makes it.
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const dir = tempDir('tower-ssh-lab-');
  const key = path.join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tower-test', '-f', key]);
  const authorized = path.join(dir, 'authorized_keys');
  fs.writeFileSync(authorized, opts.authorize === false ? '' : fs.readFileSync(`${key}.pub`));
  const knownHosts: string[] = [];
  const clientConfig: string[] = [];
  const boxes: SshBox[] = [];
  for (const name of names) {
    const bdir = path.join(dir, name);
    fs.mkdirSync(bdir);
    const hostKey = path.join(bdir, 'host_key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', hostKey]);
    const port = await freePort();
    fs.writeFileSync(
      path.join(bdir, 'sshd_config'),
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `AuthorizedKeysFile ${authorized}`,
        'PidFile none',
        'UsePAM no',
        'StrictModes no',
        'PermitRootLogin prohibit-password',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'MaxStartups 100',
        'MaxSessions 100',
        'LogLevel ERROR',
        '',
      ].join('\n'),
    );
    knownHosts.push(`[127.0.0.1]:${port} ${fs.readFileSync(`${hostKey}.pub`, 'utf8').trim()}`);
    clientConfig.push(
      `Host ${name}`,
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      '  User root',
      `  IdentityFile ${key}`,
      '  IdentitiesOnly yes',
      '  IdentityAgent none',
      `  UserKnownHostsFile ${path.join(dir, 'known_hosts')}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  LogLevel ERROR',
      '',
    );
    boxes.push(new SshBox(name, bdir, port));
  }
  fs.writeFileSync(path.join(dir, 'known_hosts'), `${knownHosts.join('\n')}\n`);
  const sshConfig = path.join(dir, 'ssh_config');
  fs.writeFileSync(sshConfig, clientConfig.join('\n'));
  const lab: SshLab = {
    dir,
    sshConfig,
    boxes,
    box: (name) => {
      const b = boxes.find((x) => x.name === name);
      if (!b) throw new Error(`no box ${name}`);
      return b;
    },
    remove: () => {
      for (const b of boxes) b.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  // Every sshd (and the connections it forked) goes after the file, even when a test failed half-way.
  stopAfterFile(async () => lab.remove());
  try {
    await Promise.all(boxes.map((b) => b.start()));
  } catch (err) {
    lab.remove();
    throw err;
  }
  return lab;
}
