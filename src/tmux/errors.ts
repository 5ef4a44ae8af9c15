/** Typed tmux failures: each says what went wrong in words an operator can act on. */

export const TMUX_ERROR_KINDS = ['not-installed', 'no-server', 'no-such-pane', 'timeout', 'failed'] as const;
export type TmuxErrorKind = (typeof TMUX_ERROR_KINDS)[number];

export class TmuxError extends Error {
  override readonly name = 'TmuxError';
  constructor(
    readonly kind: TmuxErrorKind,
    message: string,
    readonly args: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Classifies tmux's stderr into an error kind. */
export function classifyTmuxFailure(stderr: string): TmuxErrorKind {
  const s = stderr.toLowerCase();
  if (
    s.includes('no server running') ||
    s.includes('server exited unexpectedly') ||
    s.includes('error connecting') ||
    s.includes('no such file or directory')
  ) {
    return 'no-server';
  }
  if (
    s.includes("can't find pane") ||
    s.includes("can't find window") ||
    s.includes("can't find session") ||
    s.includes('no such pane')
  ) {
    return 'no-such-pane';
  }
  return 'failed';
}
