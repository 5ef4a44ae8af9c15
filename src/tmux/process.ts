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
export function runTmuxProcess(
  argv: readonly string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<TmuxProcessResult> {
  return new Promise((resolve) => {
    const child = spawn('tmux', argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMUX: '' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const state = {
      timedOut: false,
      canceled: false,
      hung: false,
      graced: false,
      error: null as NodeJS.ErrnoException | null,
      done: false,
    };
    const finish = (code: number | null, sig: NodeJS.Signals | null) => {
      if (state.done) return;
      state.done = true;
      clearTimeout(timer);
      clearTimeout(guard);
      signal?.removeEventListener('abort', onAbort);
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
      resolve({
        code,
        signal: sig,
        stdout: text(out),
        stderr: text(err),
        timedOut: state.timedOut,
        canceled: state.canceled,
        hung: state.hung,
        error: state.error,
      });
    };
    // A timer can come due after the event loop was held up (a long synchronous read of a big box)
    // with tmux's answer already waiting: the answer is taken first (setImmediate runs after the
    // pending I/O), and the timer acts only if the process is still out.
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const unlessDone = (act: () => void) => () =>
      setImmediate(() => {
        if (!state.done) act();
      });
    const timer = setTimeout(
      unlessDone(() => {
        // Exited, its pipes still closing: the close decides.
        if (exited()) return;
        state.timedOut = true;
        child.kill('SIGTERM');
      }),
      timeoutMs,
    );
    const hang = unlessDone(() => {
      // Exited on its own just now (the loop was held up): its pipes get their half second too.
      if (exited() && !state.timedOut && !state.graced) {
        state.graced = true;
        guard = setTimeout(hang, 500);
        return;
      }
      state.hung = true;
      child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      finish(null, 'SIGKILL');
    });
    let guard = setTimeout(hang, timeoutMs + 500);
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
