/**
 * The pane of a lead Claude Code runs in its own process (`tmuxPaneId: "leader"`, state `in-process`)
 * when its session file did not place it (systems/claude-teams/teams.ts, placeLead): the pane its
 * recorded process (`leadProcess`) runs in, else the pane its own hook events came from (their
 * `session_id` is the team's `leadSessionId`; the newest event wins, on the server it names). The
 * pane found is then checked as any member's (store/pane-server.ts): on that server only, alive, and
 * not contradicting the member (a pane started after it joined, working in another folder, or not
 * where its recorded process runs is `not-its-pane`). A seat on a server tower does not read is
 * named and refused, as is a team tied to two servers by its lead's process; a recorded process that
 * has ended seats nothing.
 */
import type { Member } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import { leadPlace } from './pane-evidence.js';
import { locatePane, serversOf, startsOf } from './pane-server.js';
import type { PaneIndex, PaneWhere, TeamTie } from './pane-server.js';

/** The lead with the pane it is seated in, and what locatePane found there; null when nothing seats it. */
export function seatLead(
  m: Member,
  root: string | null,
  index: PaneIndex,
  tie: TeamTie | null,
): { member: Member; where: PaneWhere } | null {
  if (!m.lead || m.paneId) return null;
  if (tie && 'both' in tie) {
    // Its process is in a pane of one server and a swarm server is named after it: seated where the
    // process runs, and refused there naming both (locatePane says the tie's reason).
    const where = leadPlace(m, serversOf(index), startsOf(index));
    if (where?.alive !== true || where.server === undefined) return null;
    const at = { ...m, paneId: where.paneId, state: 'unknown' as const };
    return { member: at, where: locatePane(at, root, index, tie) };
  }
  const place = tie?.place ?? null;
  // Its recorded process has ended: no pane is its now, whatever its hooks said before.
  if (place?.alive === false) return null;
  if (place?.alive === true && place.server !== undefined) {
    const at = { ...m, paneId: place.paneId, state: 'unknown' as const };
    return { member: at, where: locatePane(at, root, index, { server: place.server, place }) };
  }
  const seat = m.sessionId ? (index.leadSeats?.(m.sessionId) ?? null) : null;
  if (seat === null) return null;
  const at = { ...m, paneId: seat.paneId, state: 'unknown' as const };
  if ('foreign' in seat) {
    const why =
      `its hooks place it in pane ${seat.paneId} of the tmux server ` +
      `${sanitizeLine(seat.foreign)}, which tower does not read`;
    return { member: at, where: { state: 'unknown', unresolved: why, problem: `${why}; actions on it are refused` } };
  }
  return { member: at, where: locatePane(at, root, index, { server: seat.server, place }) };
}
