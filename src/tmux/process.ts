/** One tmux process, run with node's own child_process, to its end or its timeout. */
import { spawn } from 'node:child_process';

/** How one tmux process ended. */
export interface TmuxProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed after `timeoutMs`. */
  timedOut: boolean;
  canceled: boolean;
  /** Still not closed half a second after the kill: its pipes were left open (a server that stopped answering). */
  hung: boolean;
  /** It could not be started (ENOENT: no tmux) or failed as a process. */
  error: NodeJS.ErrnoException | null;
}

/**
 * Runs tmux once with node's own child_process (a dependency's process wrapper would add ~160 KB to
 * every start). A tmux client hands its pipes to the server, so a server that stops answering keeps
 * them open after the client is killed: waiting for them to close would wait forever, hence `hung`.
 */
export function runTmuxProcess(argv: readonly string[], timeoutMs: number, signal: AbortSignal | undefined): Promise<TmuxProcessResult> {
  return new Promise((resolve) => {
    const child = spawn('tmux', argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMUX: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const state = { timedOut: false, canceled: false, hung: false, error: null as NodeJS.ErrnoException | null, done: false };
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (state.done) return;
      state.done = true;
      clearTimeout(timer);
      clearTimeout(guard);
      signal?.removeEventListener('abort', onAbort);
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
      resolve({ code, signal: sig, stdout: text(out), stderr: text(err), timedOut: state.timedOut, canceled: state.canceled, hung: state.hung, error: state.error });
    };
    const timer = setTimeout(() => {
      state.timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    const guard = setTimeout(() => {
      state.hung = true;
      child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      finish(null, 'SIGKILL');
    }, timeoutMs + 500);
    const onAbort = () => {
      state.canceled = true;
      child.kill('SIGTERM');
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e: NodeJS.ErrnoException) => {
      state.error = e;
      // A process that never started has no streams to wait for.
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', (code, sig) => finish(code, sig));
  });
}
