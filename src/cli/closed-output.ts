/**
 * `tower status | head -1`: the reader of our output went away. That is no failure: there is no
 * one left to tell, so EPIPE is swallowed and tower ends as it would have (exit 0 for status).
 * Commands that follow their output (watch) listen for the error themselves and stop.
 */

/** Makes EPIPE on stdout/stderr quiet instead of an uncaught stack trace; other errors still surface. */
export function quietOnClosedOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (stream.listeners('error').some((l) => l === onOutputError)) continue;
    stream.on('error', onOutputError);
  }
}

function onOutputError(err: NodeJS.ErrnoException): void {
  // EIO: the terminal itself went away (hang-up); the control room hears it and ends (ui/terminal/ending.ts).
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED' || err.code === 'EIO') return;
  throw err;
}
