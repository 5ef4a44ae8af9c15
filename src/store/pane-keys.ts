/**
 * The keys captures go by (a pane id on tower's own server, `<server>/%3` on a swarm server), and
 * which member panes a capture round reads.
 */
import type { Member, Run } from '../model/model.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SwarmServer } from '../tmux/swarm.js';

/**
 * A pane's key among captures: its id on tower's own server (`%3`), `<server>/%3` on a Claude Code
 * swarm server. Pane ids repeat across servers; keys do not.
 */
export function paneKey(paneId: string, server: string | null | undefined): string {
  return server ? `${server}/${paneId}` : paneId;
}

/** The server and pane id of a key. */
export function splitPaneKey(key: string): { server: string | null; paneId: string } {
  const at = key.lastIndexOf('/');
  return at < 0 ? { server: null, paneId: key } : { server: key.slice(0, at), paneId: key.slice(at + 1) };
}

/** The key of a member's pane, or null when it has none, its server is unknown, or the pane there is not its own. */
export function memberPaneKey(m: Member): string | null {
  // Another agent's pane is never read as this member's.
  if (!m.paneId || m.tmuxServerUnknown !== undefined || m.state === 'not-its-pane') return null;
  return paneKey(m.paneId, m.tmuxServer);
}

/** The keys of every pane in the lists that is not dead. */
function aliveKeys(panes: readonly PaneInfo[], swarms: readonly SwarmServer[]): Set<string> {
  const keys = new Set(panes.filter((p) => !p.dead).map((p) => p.paneId));
  for (const s of swarms) for (const p of s.panes) if (!p.dead) keys.add(paneKey(p.paneId, s.name));
  return keys;
}

/**
 * The member panes worth capturing (as paneKey keys): alive by liveness (with no tmux server to ask
 * nothing is, and nothing is captured), and still alive in the newest pane lists when there are some.
 */
export function memberPanes(
  runs: readonly Run[],
  panes: readonly PaneInfo[] | null,
  swarms: readonly SwarmServer[] = [],
): string[] {
  const alive = panes ? aliveKeys(panes, swarms) : null;
  const ids = new Set<string>();
  for (const r of runs) {
    for (const m of r.members) {
      const key = m.state === 'alive' ? memberPaneKey(m) : null;
      if (key !== null && (alive === null || alive.has(key))) ids.add(key);
    }
  }
  return [...ids];
}
