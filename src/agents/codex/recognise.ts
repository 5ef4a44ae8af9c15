/** Whether a process is a Codex agent, by its argv: shared by the description and the state reading. */

/**
 * The npm launcher (`node …/@openai/codex/bin/codex.js`, tmux says `node`) or the platform binary
 * it runs as a child (`…/codex-linux-x64/vendor/<target>/bin/codex`, or a `codex` on PATH).
 */
const LAUNCHER = /(^|\/)@openai\/codex\/bin\/codex\.js$|(^|\/)bin\/codex(\.js)?$/;
const BINARY = /(^|\/)codex$/;

/** Whether `argv` is the launcher or the binary; not the app server the first Codex starts (`codex app-server …`), no agent of its own. */
export function isCodexArgv(argv: readonly string[]): boolean {
  return (
    argv[1] !== 'app-server' &&
    (BINARY.test(argv[0] ?? '') || (/(^|\/)node$/.test(argv[0] ?? '') && LAUNCHER.test(argv[1] ?? '')))
  );
}
