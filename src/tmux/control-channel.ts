/**
 * The control-mode clients tower keeps attached (src/tmux/pane-output.ts), offered for running a
 * command on their server without a process of its own. A poll tick's `list-panes` goes this way
 * while a pane is followed: one tmux process every 2 s was a fifth of what `tower serve` cost a box
 * while previewing (0.17 % of a core of its 1.67 %, test/bench/serve-preview.bench.ts). A command
 * that does not come back whole from a channel is run as a process as before.
 *
 * Channels are found by the server's socket file, so every client of that server (tower's own,
 * a swarm server's made afresh per scan) finds the one attached (src/tmux/channels.ts, which
 * every start loads; this file loads with the control client).
 */

/** Runs one command on the server through an attached control client. */
export interface ControlChannel {
  /** The command's output as a process's stdout would be, or null when the channel did not give it whole. */
  run(args: readonly string[], timeoutMs: number): Promise<string | null>;
}

/**
 * A command's arguments as one control-mode command line, each in single quotes (tmux reads nothing
 * inside them: no `#` comment, `;`, `{`, `$` or `~`); null when one cannot be quoted so (it holds a
 * quote or a line break).
 */
export function controlCommandLine(args: readonly string[]): string | null {
  if (args.some((a) => /['\n\r]/.test(a))) return null;
  return args.map((a) => `'${a}'`).join(' ');
}
