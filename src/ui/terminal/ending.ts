/**
 * A terminal that went away (the ssh link dropped, the window or tab was closed): its writes fail
 * with EIO as an 'error' event on the stream, and at exit node resets the terminal's modes and
 * aborts when that fails (`Assertion failed … node::ResetStdio()`). Here the error is heard, the
 * tasks that must run before tower ends (stop the demo's server) are run, and the dead terminal's
 * descriptors are closed before node's own reset, which then passes them by.
 */
import fs from 'node:fs';
import tty from 'node:tty';

/** stdin, stdout, stderr. */
const STDIO = [0, 1, 2] as const;

/** Which of fds 0–2 were terminals when tower started (read when this module loads). */
const ttyAtStart = STDIO.map((fd) => tty.isatty(fd));

/** True when a descriptor that was a terminal no longer is one (hung up: its ioctls fail). */
function lost(fd: number): boolean {
  return ttyAtStart[fd] === true && !tty.isatty(fd);
}

/** Whether tower's terminal is gone: writing to it fails, and nobody would read it anyway. */
export function terminalGone(): boolean {
  return STDIO.some(lost);
}

/** Closes the descriptors of a terminal that is gone, so that node's reset at exit leaves them be. */
export function closeGoneTerminal(): void {
  for (const fd of STDIO) {
    if (!lost(fd)) continue;
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: nothing for node to reset either.
    }
  }
}

let exitHookInstalled = false;

/**
 * Listens for write and read errors on the terminal's streams (for good: an error after the control
 * room has ended must not crash the exit path either) and tells `onLost` of the first while watched.
 * Returns the function that stops telling.
 */
export function watchTerminal(onLost: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', closeGoneTerminal);
  }
  let told = false;
  let watching = true;
  const onError = () => {
    if (!watching || told) return;
    told = true;
    onLost();
  };
  // Never removed: an error after the control room ended, with no listener at all, would crash.
  for (const s of [process.stdin, process.stdout, process.stderr]) s.on('error', onError);
  return () => {
    watching = false;
  };
}

/** Writes to stderr unless the terminal it is (or shares) is gone. */
export function toStderr(text: string): void {
  if (lost(2)) return;
  process.stderr.write(text);
}

/** What must happen before tower ends, whatever the way: the newest first. */
const tasks: (() => Promise<void>)[] = [];

/** Registers a task for endProcess; returns the function that unregisters it. */
export function atEnd(task: () => Promise<void>): () => void {
  tasks.push(task);
  return () => {
    const at = tasks.indexOf(task);
    if (at >= 0) tasks.splice(at, 1);
  };
}

/** At most this long for the tasks before tower ends anyway: a stuck tmux must not keep it alive. */
const TASKS_BOUND_MS = 15_000;

/** The ending under way: a second reason to end (the EIO a hang-up causes) waits for the first. */
let ending: Promise<never> | null = null;

/**
 * Runs the registered tasks (bounded), then exits with `code`. Once only: a second call (a signal
 * handler whose terminal restore fails and reports the lost terminal, which ends tower again) waits
 * for the first ending instead of exiting at once with no task left to run, which left the demo's
 * server and agents running behind a closed terminal.
 */
export function endProcess(code: number): Promise<never> {
  ending ??= runEnding(code);
  return ending;
}

async function runEnding(code: number): Promise<never> {
  const all = Promise.allSettled(
    tasks
      .splice(0)
      .reverse()
      .map((t) => t()),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise((r) => (timer = setTimeout(r, TASKS_BOUND_MS)))]);
  clearTimeout(timer);
  process.exit(code);
}
