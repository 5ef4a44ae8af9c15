/**
 * Why no action may touch a member's pane though it has a `%N`: the one reason the command line
 * refuses with (actions/targets.ts) and the screen says at the key, whose footer does not offer it
 * (ui/state/requests.ts). Here, beside the liveness that sets what it reads, so the screen's first
 * frame does not load the actions to say it.
 */
import type { Member } from '../model/model.js';

/**
 * Why no action may touch a member's pane, or null: the `%N` is on several servers that both fit
 * it, the pane there is another agent's (state `not-its-pane`), or nothing says it is alive and the
 * member's (state `unknown`: no server answered, or no evidence).
 */
export function paneRefusal(m: Member): string | null {
  if (m.tmuxServerUnknown !== undefined) return m.tmuxServerUnknown;
  if (m.state === 'not-its-pane') return `not its pane: ${m.notItsPane ?? `${m.paneId ?? ''} is another agent's`}`;
  if (m.state === 'unknown')
    return `${m.name}'s pane ${m.paneId ?? ''} is in an unknown state: tower cannot tell it is alive`;
  return null;
}
