/**
 * Claude Code's session files (`<claude>/sessions/<pid>.json`, src/systems/claude-teams/sessions.ts)
 * followed for the captures: which pane each live session runs in, and what it says it is doing.
 * The first source of a Claude Code agent's activity, before hooks and the screen.
 *
 * Cost in proportion to changes: each refresh lists the folder (bounded) and stats each file; only a
 * file whose time or size moved is read again. Each live session's process is checked by its start
 * time (one small /proc read; a file whose process is gone is not checked again until it changes),
 * and its place in tmux is read from its environment once per process. 1,000 files of ended
 * sessions: a refresh with nothing changed 88 → 14 ms; 20 files 0.8 ms (a busy 2-core box).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from '../model/model.js';
import type { ClaudeSession, PanePlace } from '../agents/claude-code/files.js';
import {
  panePlaceOf,
  readSessionFile,
  sessionFileNames,
  sessionIsLive,
  transcriptFile,
} from '../agents/claude-code/files.js';
import { SWARM_SOCKET } from '../tmux/swarm.js';

/** What a session file says its agent is doing, for the pane it runs in. */
export interface SessionState {
  session: ClaudeSession;
  /** Its transcript, for the context gauge. */
  transcript: string | null;
}

interface Known {
  mtimeMs: number;
  size: number;
  session: ClaudeSession | null;
  /** Its process was seen gone: a pid that comes back is another process (another start), so it stays gone. */
  ended: boolean;
}

function realOrSame(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export class SessionBook {
  private files = new Map<string, Known>();
  private places = new Map<string, PanePlace | null>();
  private byPane = new Map<string, SessionState>();
  private key = '';
  problems: Problem[] = [];
  private readonly ownSocket: string;

  constructor(
    private readonly claudeDir: string,
    /** The socket file of tower's own tmux server: a session on it is keyed by its pane id alone. */
    ownSocket: string,
  ) {
    this.ownSocket = realOrSame(ownSocket);
  }

  /** Reads what changed; true when any pane's session state changed. Never throws. */
  refresh(): boolean {
    const dir = path.join(this.claudeDir, 'sessions');
    const names = sessionFileNames(this.claudeDir);
    const seen = new Set<string>();
    const problems: Problem[] = [];
    for (const name of names) {
      seen.add(name);
      const file = path.join(dir, name);
      const st = fs.statSync(file, { throwIfNoEntry: false });
      if (!st) continue;
      const known = this.files.get(name);
      if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) continue;
      const session = readSessionFile(file, problems);
      this.files.set(name, { mtimeMs: st.mtimeMs, size: st.size, session, ended: false });
    }
    for (const name of this.files.keys()) if (!seen.has(name)) this.files.delete(name);
    this.problems = problems;
    const byPane = new Map<string, SessionState>();
    const usedPlaces = new Set<string>();
    for (const known of this.files.values()) {
      const session = known.session;
      if (!session || known.ended) continue;
      if (!sessionIsLive(session)) {
        known.ended = true;
        continue;
      }
      const id = `${session.pid}:${session.procStart}`;
      usedPlaces.add(id);
      let place = this.places.get(id);
      if (place === undefined) this.places.set(id, (place = panePlaceOf(session.pid)));
      const key = place ? this.keyOf(place) : null;
      if (key === null) continue;
      const transcript = session.cwd ? transcriptFile(this.claudeDir, session.cwd, session.sessionId) : null;
      byPane.set(key, { session, transcript });
    }
    for (const id of this.places.keys()) if (!usedPlaces.has(id)) this.places.delete(id);
    const key = [...byPane]
      .map(([k, s]) => `${k}|${s.session.status}|${s.session.statusAt}|${s.session.waitingFor}`)
      .join('\n');
    this.byPane = byPane;
    if (key === this.key) return false;
    this.key = key;
    return true;
  }

  /** The pane key of a place: tower's own server's `%N`, a swarm server's `<name>/%N`, else null (another server). */
  private keyOf(place: PanePlace): string | null {
    // Keys as captures.ts's paneKey makes them (not imported: captures.ts reads this book).
    if (realOrSame(place.socket) === this.ownSocket) return place.paneId;
    const name = path.basename(place.socket);
    return SWARM_SOCKET.test(name) ? `${name}/${place.paneId}` : null;
  }

  /** The live session in a pane (by paneKey), or null. */
  stateOf(key: string): SessionState | null {
    return this.byPane.get(key) ?? null;
  }
}
