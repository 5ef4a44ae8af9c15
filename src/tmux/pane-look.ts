/**
 * Who runs a pane and what it shows, asked in ONE tmux call: `display-message` of the pane's id, its
 * first process and the server's pid between fresh markers, then `capture-pane` of the same pane,
 * chained with `;`. The server runs the two as one command queue, so the screen is the one of the
 * process named, and an answer costs one process where it cost two (each ~15-70 ms on a busy box).
 * The marker line comes first and is one line (ids and pids only), so nothing the pane prints can
 * forge it: the screen is everything after its line end.
 */
import type { PaneOwner } from './client.js';
import type { PaneListMarkers } from './pane-list.js';

/** A pane's owner and its screen (plain text), taken together. */
export type PaneLook = PaneOwner & { screen: string };

/** The tmux argv (after the socket flags) of one look at `paneId`, `lines` lines of scrollback. */
export function paneLookArgs(paneId: string, m: PaneListMarkers, lines: number): string[] {
  const owner = `${m.open}#{pane_id}${m.sep}#{pane_pid}${m.sep}#{pid}${m.close}`;
  return ['display-message', '-p', '-t', paneId, owner, ';', 'capture-pane', '-p', '-t', paneId, '-S', `-${lines}`];
}

/** Reads one look's output: null unless its first line is the owner's marker line naming `paneId`. */
export function parsePaneLook(out: string, paneId: string, m: PaneListMarkers): PaneLook | null {
  const nl = out.indexOf('\n');
  const first = nl < 0 ? out : out.slice(0, nl);
  if (!first.startsWith(m.open) || !first.endsWith(m.close)) return null;
  const [id, pid = '', server = ''] = first.slice(m.open.length, -m.close.length).split(m.sep);
  if (id !== paneId || !/^\d{1,10}$/.test(pid) || !/^\d{1,10}$/.test(server)) return null;
  return { paneId, pid: Number(pid), serverPid: Number(server), screen: nl < 0 ? '' : out.slice(nl + 1) };
}
