/**
 * How tower runs OpenSSH: never a prompt (batch mode), one multiplexed connection per host (a
 * control socket in a private, short-pathed directory), keepalives, and ssh's failures in words
 * that say what to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostConfig } from '../config/config.js';
import { CONTROL_DIR_OWNER, CONTROL_DIR_PREFIX } from './old-control-dirs.js';

/** Seconds between keepalives; after three unanswered ones ssh gives up on the connection. */
export const KEEPALIVE_SEC = 5;

/** The longest temp dir the control sockets go under; a longer one falls back to /tmp. */
const SHORT_BASE = 60;

/**
 * A private directory for the control sockets, owned by us with mode 0700, removed by `dispose()`
 * (or, after a SIGKILL, by a later start: old-control-dirs.ts).
 * Socket paths stay short: a unix socket path holds at most 104-108 bytes, and ssh adds a 17-byte
 * suffix while it sets the socket up, so each host's socket is named by its index, not ssh's %C.
 */
export class ControlDir {
  readonly path: string;
  constructor(base = os.tmpdir()) {
    const root = base.length > SHORT_BASE ? '/tmp' : base;
    this.path = fs.mkdtempSync(path.join(root, CONTROL_DIR_PREFIX));
    fs.chmodSync(this.path, 0o700);
    // Names this tower as the folder's user, so a later start never removes it while it runs.
    fs.writeFileSync(path.join(this.path, CONTROL_DIR_OWNER), `${process.pid}\n`, { mode: 0o600 });
    // A signal or crash may end the process before stop(): the directory goes anyway.
    process.once('exit', this.dispose);
  }
  /** The control socket of the `index`-th host. */
  socketFor(index: number): string {
    return path.join(this.path, `h${index}`);
  }

  dispose = (): void => {
    process.off('exit', this.dispose);
    fs.rmSync(this.path, { recursive: true, force: true });
  };
}

/** The ssh options tower always passes; the host's own sshArgs come first, so they win. */
export function sshOptions(controlPath: string, connectTimeoutSec: number): string[] {
  const o = (s: string) => ['-o', s];
  return [
    ...o('BatchMode=yes'),
    ...o('ControlMaster=auto'),
    ...o(`ControlPath=${controlPath}`),
    ...o('ControlPersist=no'),
    ...o(`ServerAliveInterval=${KEEPALIVE_SEC}`),
    ...o('ServerAliveCountMax=3'),
    ...o(`ConnectTimeout=${Math.max(1, Math.round(connectTimeoutSec))}`),
  ];
}

/** argv (after `ssh`) that runs `command` on the host; `tty` asks for a terminal (attach). */
export function sshArgv(
  host: HostConfig,
  controlPath: string,
  connectTimeoutSec: number,
  command: string,
  opts: { tty?: boolean } = {},
): string[] {
  return [
    ...host.sshArgs,
    ...sshOptions(controlPath, connectTimeoutSec),
    opts.tty ? '-t' : '-T',
    '--',
    host.destination,
    command,
  ];
}

/** Quotes a word for the remote shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:%@=+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The remote command line that starts the streaming side. */
export function serveCommand(host: HostConfig): string {
  return `${host.tower} serve --stdio`;
}

/** The ssh failure in words, with what to do about it; null when stderr says nothing known. */
export function describeSshFailure(host: HostConfig, stderr: string, exitCode: number | null): string {
  const text = stderr.replace(/\r/g, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('Warning: Permanently added'));
  const last = lines[lines.length - 1] ?? '';
  const has = (re: RegExp) => re.test(text);
  const dest = host.destination;
  if (
    has(
      /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No (?:ED25519|RSA|ECDSA)? ?host key is known/i,
    )
  )
    return (
      `the host key of ${dest} is unknown or changed (host key verification failed): run "ssh ` +
      `${dest}" once by hand to check and accept it`
    );
  if (has(/Permission denied/i))
    return (
      `${dest} refused the login (${last || 'permission denied'}): add your public key to ` +
      `~/.ssh/authorized_keys there, or load a key with a passphrase into ssh-agent (tower never prompts)`
    );
  if (has(/Connection refused/i)) return `nothing accepts ssh connections at ${dest} (connection refused)`;
  if (
    has(/Connection timed out|Operation timed out|timed out during banner exchange|Connection timed out during banner/i)
  )
    return `${dest} does not answer (ssh timed out)`;
  if (has(/Could not resolve hostname/i)) return `the name of ${dest} does not resolve (${last})`;
  if (has(/No route to host|Network is unreachable/i)) return `${dest} cannot be reached (${last})`;
  if (has(/node: (?:command )?not found|env: .?node.?: No such file/i))
    return `node is not installed on ${host.name} (${last}): the box needs Node 20 or newer and tmux`;
  if (exitCode === 127 || has(/command not found|No such file or directory/i))
    return (
      `tower does not start on ${host.name} ("${host.tower}": ${last || 'command not found'}): ` +
      `install it there (npm install -g tower, or copy the packed tower-*.tgz and npm install -g it), ` +
      `or set "tower" of this host to its command line`
    );
  if (has(/Connection closed|Connection reset|Broken pipe|Timeout, server .* not responding/i))
    return `the ssh connection to ${dest} was lost (${last})`;
  if (last) return `ssh to ${dest} failed: ${last}`;
  return exitCode === null ? `the ssh connection to ${dest} ended` : `ssh to ${dest} exited ${exitCode}`;
}
