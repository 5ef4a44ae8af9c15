/**
 * The `notify` command: a shell command line run once per notice, with the notice in its
 * environment and a time limit. It runs in its own process group so a timeout kills whatever it
 * started too; its failure is reported, never waited on beyond the limit.
 */
import { spawn } from 'node:child_process';
import { sanitizeLine } from '../text/sanitize.js';
import type { Notice } from './notices.js';

/** How a run of the command ended. */
export type CommandOutcome =
  { status: 'done' } | { status: 'failed'; message: string } | { status: 'timeout'; message: string };

/** One value of the command's environment: no control character (a NUL would stop the spawn), bounded. */
const envValue = (text: string): string => sanitizeLine(text).replace(/\0/g, '').slice(0, 4096);

/** The environment the command sees (added to tower's own). */
export function noticeEnv(n: Notice): Record<string, string> {
  return {
    TOWER_EVENT: n.event,
    TOWER_RUN: envValue(n.run),
    TOWER_GATE: envValue(n.gate ?? ''),
    TOWER_TITLE: envValue(n.title),
    TOWER_HOST: envValue(n.host ?? ''),
  };
}

const STDERR_LIMIT = 2000;

/** Runs the command for one notice; resolves when it ends or is killed at the time limit. */
export function runNotifyCommand(
  command: string,
  n: Notice,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const finish = (outcome: CommandOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const child = spawn('/bin/sh', ['-c', command], {
      env: { ...env, ...noticeEnv(n) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      // The whole group: a `sleep` the shell started would otherwise live on, holding its pipes.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      child.stderr.destroy();
      finish({
        status: 'timeout',
        message: `notify command did not finish within ${timeoutMs / 1000} s and was killed`,
      });
    }, timeoutMs);
    child.on('error', (err) => finish({ status: 'failed', message: `notify command could not start: ${err.message}` }));
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const report = () => {
      if (!exited) return;
      const { code, signal } = exited;
      if (code === 0) return finish({ status: 'done' });
      const why = signal ? `killed by ${signal}` : `exit ${code}`;
      const said = stderr.trim().split('\n').slice(-1)[0] ?? '';
      finish({ status: 'failed', message: `notify command failed (${why})${said ? `: ${said}` : ''}` });
    };
    child.stderr.on('close', report);
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      // Its stderr usually closes with it; something it left running may hold it open: don't wait for that.
      setTimeout(report, 100).unref();
    });
  });
}
