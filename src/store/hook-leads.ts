/**
 * Where each Claude Code session's own hook events last came from: its tmux server and pane, by
 * `session_id` (store/hook-events.ts reads the lines). A session team's lead runs in Claude Code's
 * own process (`tmuxPaneId: "leader"`), and its team file names no pane; its hooks carry the team's
 * `leadSessionId` with the `$TMUX_PANE` and `$TMUX` socket of the pane it runs in. What a seat says
 * is checked like any pane (store/lead-seat.ts); this file only remembers it.
 *
 * The newest event of a session wins (lines are in the order the hooks wrote them). A line that names
 * no server (written before the hook named it) or no pane (an agent outside tmux) seats nothing; a
 * SessionEnd ends the seat, except one for `/clear`, after which the same process goes on in its pane.
 */
import path from 'node:path';
import { LineFollower } from '../files/follow.js';
import { canonicalSocket, hookEventsFile, parseEventLine } from './hook-line.js';
import type { AppContext } from '../context/context.js';
import { stateHome } from '../config/config.js';
import { socketFile } from '../tmux/client.js';

/**
 * What is read of the events file and of the one it was rotated to (`events.1`): both whole. The
 * hook starts the file afresh past 1 MB, so 2 MB takes each whole with room; an idle lead's last
 * event may be in either.
 */
const WHOLE_FILE_BYTES = 2 * 1024 * 1024;
const STEP_BYTES = 4 * 1024 * 1024;
/** Sessions remembered at most (the oldest seen goes first); a box runs tens. */
export const MAX_SEATS = 5000;

/** Where a session's hooks last ran: the socket of the tmux server and the pane, as the hook line wrote them. */
export interface HookSeat {
  socket: string;
  paneId: string;
  /** Its last event was a SessionEnd (not for `/clear`): the session is over. */
  ended: boolean;
}

/** A seat against the servers tower reads: tower's own (`server: null`), a swarm server by name, or another server. */
export type LeadSeat = { paneId: string; server: string | null } | { paneId: string; foreign: string };

/** The seat of a session id, or null when its hooks placed it nowhere (or it ended). */
export type LeadSeats = (sessionId: string) => LeadSeat | null;

export class HookLeads {
  private seats = new Map<string, HookSeat>();
  private readonly current: LineFollower;

  constructor(readonly file: string) {
    this.current = new LineFollower(file, WHOLE_FILE_BYTES, STEP_BYTES);
  }

  /** Reads what was appended; true when a session's seat moved, appeared or ended. Never throws. */
  refresh(): boolean {
    const read = this.current.read();
    if (!read) return false;
    let changed = false;
    // Afresh (the first read, or the file was rotated): the rotated file's lines come first.
    if (read.fresh) {
      const older = new LineFollower(`${this.file}.1`, WHOLE_FILE_BYTES, STEP_BYTES).read();
      for (const line of older?.lines ?? []) changed = this.take(line) || changed;
    }
    for (const line of read.lines) changed = this.take(line) || changed;
    return changed;
  }

  private take(line: string): boolean {
    // Most lines are other agents' tool calls: a cheap look before the parse.
    if (!line.includes('"session_id"')) return false;
    const e = parseEventLine(line);
    if (!e || e.sessionId === null || e.pane === '' || e.server === null) return false;
    const ended = e.event === 'SessionEnd' && e.endReason !== 'clear';
    const before = this.seats.get(e.sessionId);
    if (before && before.socket === e.server && before.paneId === e.pane && before.ended === ended) return false;
    this.seats.delete(e.sessionId);
    this.seats.set(e.sessionId, { socket: e.server, paneId: e.pane, ended });
    if (this.seats.size > MAX_SEATS) this.seats.delete(this.seats.keys().next().value!);
    return true;
  }

  /** The seat a session's hooks give, as written, or null. */
  seatOf(sessionId: string): HookSeat | null {
    return this.seats.get(sessionId) ?? null;
  }

  /**
   * The seats against tower's own server (its socket file) and the swarm servers that answered
   * (their sockets): a socket is compared with its folder's links resolved, as tmux writes `$TMUX`.
   */
  seatsOn(ownSocket: string, swarms: readonly { name: string; path: string }[]): LeadSeats {
    const canon = new Map<string, string>();
    const canonical = (socket: string): string => {
      let c = canon.get(socket);
      if (c === undefined) canon.set(socket, (c = canonicalSocket(path.resolve(socket))));
      return c;
    };
    const own = canonical(ownSocket);
    return (sessionId) => {
      const seat = this.seats.get(sessionId);
      if (!seat || seat.ended) return null;
      const at = canonical(seat.socket);
      if (at === own) return { paneId: seat.paneId, server: null };
      const swarm = swarms.find((s) => canonical(s.path) === at);
      return swarm ? { paneId: seat.paneId, server: swarm.name } : { paneId: seat.paneId, foreign: seat.socket };
    };
  }
}

/** The events files read once (a one-shot command), as seats on tower's server and the swarm servers found. */
export function hookSeatsOnce(
  ctx: Pick<AppContext, 'env' | 'tmux'>,
  swarms: readonly { name: string; path: string }[],
): LeadSeats {
  const hooks = new HookLeads(hookEventsFile(stateHome(ctx.env)));
  hooks.refresh();
  return hooks.seatsOn(socketFile(ctx.tmux.socket, ctx.env), swarms);
}
