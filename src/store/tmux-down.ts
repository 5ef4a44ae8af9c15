/**
 * tower's own tmux server not running (or -L/-S naming none): said once, at the top of the screen
 * and in `tower status` (text and JSON problem), so that members shown unknown are not read as
 * agents that died, and a preview is not read as live.
 */
import type { Problem, Snapshot } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { TmuxSocket } from '../tmux/client.js';

const SUFFIX = ' is not running';

/** How the server is named on the command line: `-L NAME`, `-S PATH`, or tmux's default server. */
function serverName(socket: TmuxSocket): string {
  if (socket.path) return `-S ${sanitizeLine(socket.path)}`;
  if (socket.name) return `-L ${sanitizeLine(socket.name)}`;
  return '(the default one)';
}

/** The problem row for a server that is not running: `tmux server -L NAME is not running: …`. */
export function tmuxDownProblem(socket: TmuxSocket): Problem {
  return {
    file: null,
    message:
      `tmux server ${serverName(socket)}${SUFFIX}: the panes of its members are unknown (start ` +
      `it, or name another with -L/-S)`,
  };
}

/** The short line for the top of the screen when the snapshot says the server is not running, else null. */
export function tmuxDownLine(snapshot: Snapshot): string | null {
  for (const p of snapshot.problems) {
    if (p.file !== null || !p.message.startsWith('tmux server ')) continue;
    const at = p.message.indexOf(`${SUFFIX}:`);
    if (at > 0) return p.message.slice(0, at + SUFFIX.length);
  }
  return null;
}
