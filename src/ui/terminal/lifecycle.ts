/**
 * Every way the control room can end: q, Ctrl-C, SIGTERM, SIGHUP, SIGINT, a crash. Signals end the
 * app normally (the terminal is restored on the way out); a crash restores the terminal at once,
 * prints the error and exits 1.
 */

/** The exit code for a signal: 128 + its number. */
export const SIGNAL_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type HandledSignal = keyof typeof SIGNAL_CODES;

export interface LifecycleHooks {
  /** A signal asked tower to stop. */
  onSignal(signal: HandledSignal): void;
  /** Something threw where nobody caught it. Must not return normally (exit). */
  onCrash(error: unknown): void;
}

/** Installs the handlers; returns the function that removes them. */
export function installLifecycle(hooks: LifecycleHooks, proc: NodeJS.Process = process): () => void {
  const signals = Object.keys(SIGNAL_CODES) as HandledSignal[];
  const onSignal = (signal: NodeJS.Signals) => hooks.onSignal(signal as HandledSignal);
  const onCrash = (error: unknown) => hooks.onCrash(error);
  for (const s of signals) proc.on(s, onSignal);
  proc.on('uncaughtException', onCrash);
  proc.on('unhandledRejection', onCrash);
  return () => {
    for (const s of signals) proc.off(s, onSignal);
    proc.off('uncaughtException', onCrash);
    proc.off('unhandledRejection', onCrash);
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
