/**
 * Every way the control room can end: q, Ctrl-C, SIGTERM, SIGHUP, SIGINT, a terminal that fails
 * writes (EIO: the ssh link dropped, the window was closed), a crash. Signals and a lost terminal
 * end the app normally (the terminal is restored where it still exists, what tower started is
 * stopped); a crash restores the terminal at once, prints the error and exits 1.
 */
import { terminalGone, watchTerminal } from './ending.js';

/**
 * The exit code for each reason to stop: 128 + the signal's number, and 74 (EX_IOERR of
 * sysexits.h) for a terminal that fails writes but has not hung up (one that has is SIGHUP's 129).
 */
export const SIGNAL_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143, EIO: 74 } as const;
export type HandledSignal = keyof typeof SIGNAL_CODES;

/** The real signals among the reasons (EIO comes from the terminal's streams). */
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const;

export interface LifecycleHooks {
  /** A signal asked tower to stop, or the terminal went away ('EIO'). */
  onSignal(signal: HandledSignal): void;
  /** Something threw where nobody caught it. Must not return normally (exit). */
  onCrash(error: unknown): void;
}

/** The hooks installed on one process, newest last, and how to stop listening. */
interface Installed {
  hooks: LifecycleHooks[];
  off(): void;
}

/**
 * Only the newest hooks hear a signal: the demo (installed first) hands the ending over to the
 * control room while that runs, and takes it back after.
 */
const installed = new WeakMap<NodeJS.Process, Installed>();

function listen(proc: NodeJS.Process): Installed {
  const hooks: LifecycleHooks[] = [];
  const top = () => hooks[hooks.length - 1];
  const onSignal = (signal: NodeJS.Signals) => top()?.onSignal(signal as HandledSignal);
  const onCrash = (error: unknown) => top()?.onCrash(error);
  for (const s of SIGNALS) proc.on(s, onSignal);
  proc.on('uncaughtException', onCrash);
  proc.on('unhandledRejection', onCrash);
  // A write that fails on a terminal that hung up is the hang-up itself (it often comes before the
  // signal): one reason, one exit code. EIO alone is a terminal that still answers but fails writes.
  const onLost = () => top()?.onSignal(terminalGone() ? 'SIGHUP' : 'EIO');
  const stopWatching = proc === process ? watchTerminal(onLost) : () => {};
  return {
    hooks,
    off() {
      for (const s of SIGNALS) proc.off(s, onSignal);
      proc.off('uncaughtException', onCrash);
      proc.off('unhandledRejection', onCrash);
      stopWatching();
    },
  };
}

/** Installs the handlers; returns the function that removes them. */
export function installLifecycle(hooks: LifecycleHooks, proc: NodeJS.Process = process): () => void {
  let own = installed.get(proc);
  if (!own) {
    own = listen(proc);
    installed.set(proc, own);
  }
  const mine = own;
  mine.hooks.push(hooks);
  return () => {
    const at = mine.hooks.lastIndexOf(hooks);
    if (at < 0) return;
    mine.hooks.splice(at, 1);
    if (mine.hooks.length > 0) return;
    mine.off();
    installed.delete(proc);
  };
}

/** Collects console output while the screen is up (it would tear the frame) to print after. Release is idempotent. */
export function holdConsole(): { release(write: (text: string) => void): void } {
  const held: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => [m, console[m]] as const);
  for (const m of methods) {
    console[m] = (...args: unknown[]) => {
      held.push(
        args
          .map((a) => (typeof a === 'string' ? a : a instanceof Error ? (a.stack ?? a.message) : safeJson(a)))
          .join(' '),
      );
    };
  }
  return {
    release(write) {
      for (const [m, fn] of saved) console[m] = fn;
      for (const line of held.splice(0)) write(`${line}\n`);
    },
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
