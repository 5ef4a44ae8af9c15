/**
 * How to come back from an attach: tmux's detach key under the prefix of the server attached to
 * (the operator's own, when their tmux config changed it), shown in tmux's status line on arrival.
 */
import type { TmuxClient } from '../tmux/client.js';
import { TmuxError } from '../tmux/errors.js';
import { sanitizeLine } from '../text/sanitize.js';

/** How long tmux shows the hint, in milliseconds. */
export const HINT_MS = 5000;

/** The server's prefix key as tmux names it (`C-b`), or tmux's default when it cannot be read. */
export async function prefixKey(tmux: TmuxClient): Promise<string> {
  try {
    const out = sanitizeLine((await tmux.run(['show-options', '-gv', 'prefix'])).trim());
    return out === '' || out === 'None' ? 'C-b' : out;
  } catch (err) {
    if (err instanceof TmuxError) return 'C-b';
    throw err;
  }
}

/** The line said on arrival: `detach with C-b d (your prefix) to come back to tower`. */
export function detachHint(prefix: string): string {
  return `detach with ${prefix} d (your prefix) to come back to tower`;
}
