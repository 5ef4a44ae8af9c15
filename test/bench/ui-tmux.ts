/**
 * Timing programs in a real tmux pane for the UI benchmarks: start a command in a fresh session on
 * a private server and measure until its screen shows something; read a process's resident memory.
 */
import { pidAlive } from '../../src/kit/process-tree.js';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

/** A private tmux server driven synchronously (benchmarks time it; nothing else runs meanwhile). */
export class BenchTmux {
  private n = 0;
  /** Starts the server with an idle session, so killing measured sessions never stops it. */
  constructor(readonly socket: string) {
    this.run('new-session', '-d', '-s', 'base', 'sleep 100000');
  }

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).trimEnd();
  }

  /** Starts `command` in a new detached session of `columns` × `rows`; returns its pane id. */
  start(command: string, columns = 120, rows = 40): string {
    return this.run(
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-s',
      `b${++this.n}`,
      '-x',
      String(columns),
      '-y',
      String(rows),
      command,
    );
  }

  /**
   * Kills the pane's session and waits (up to 10 s) until its processes have exited: a tower still
   * shutting down would otherwise share the 2 cores with whatever is timed next, and the build timed
   * second in a round measured ~40-60 ms slower than the same build timed first.
   */
  close(pane: string): void {
    const shell = Number(this.run('display-message', '-p', '-t', pane, '#{pane_pid}'));
    let pids = [shell];
    try {
      pids = pids.concat(
        execFileSync('pgrep', ['-P', String(shell)], { encoding: 'utf8' })
          .trim()
          .split('\n')
          .map(Number),
      );
    } catch {
      // No children left: only the shell to wait for.
    }
    this.run('kill-session', '-t', pane);
    const t0 = performance.now();
    while (pids.some(pidAlive) && performance.now() - t0 < 10_000)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }

  screen(pane: string): string {
    return this.run('capture-pane', '-p', '-t', pane);
  }

  /**
   * Milliseconds from starting `command` until the pane shows `ready`. Polling capture-pane costs a
   * few ms per look, the same for every command compared.
   */
  timeUntil(command: string, ready: RegExp, timeoutMs = 20_000): { ms: number; pane: string } {
    const t0 = performance.now();
    const pane = this.start(command);
    for (;;) {
      if (ready.test(this.screen(pane))) return { ms: performance.now() - t0, pane };
      if (performance.now() - t0 > timeoutMs)
        throw new Error(`timed out waiting for ${ready} in:\n${this.screen(pane)}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }

  /** The pid of the node process the pane's shell started. */
  nodePid(pane: string): number {
    const shell = this.run('display-message', '-p', '-t', pane, '#{pane_pid}');
    const out = execFileSync('pgrep', ['-P', shell, 'node'], { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
    return Number(out);
  }

  kill(): void {
    let socket: string | null = null;
    try {
      socket = this.run('display-message', '-p', '#{socket_path}');
      this.run('kill-server');
    } catch {
      // Already gone.
    }
    // tmux leaves its socket file behind: a bench run must not leave one per run.
    if (socket && socket.includes(this.socket)) fs.rmSync(socket, { force: true });
  }
}

/** Resident memory of a process in MB (Linux /proc), or null elsewhere. */
export function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** utime+stime of a process in clock ticks, and its resident memory in bytes (Linux /proc). */
export function procUsage(pid: number): { ticks: number; rss: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ticks: Number(f[11]) + Number(f[12]), rss: Number(f[21]) * 4096 };
}

/** `min / median / max` of a list of milliseconds. */
export function stats(ms: readonly number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const mid = s.length % 2 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
  return `min ${(s[0] ?? 0).toFixed(1)} ms, median ${mid.toFixed(1)} ms, max ${(s[s.length - 1] ?? 0).toFixed(1)} ms`;
}

/** The median. */
export function median(ms: readonly number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
}
