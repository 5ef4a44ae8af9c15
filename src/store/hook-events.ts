/**
 * What Claude Code's hooks said each agent is doing: the events tower's hook line appends to
 * `$XDG_STATE_HOME/tower/hooks/events` (`<epoch s>\t<$TMUX_PANE>\t<server socket>\t<event JSON>` per
 * line). They are the first source of a member's activity; the screen is read where no hook has
 * spoken lately.
 *
 * Known holes, handled: an Esc interrupt fires no hook, so "working" from a hook is trusted for a
 * while only (WORKING_TTL_MS), then the pane is read again; `idle_prompt` comes ~60 s after Stop, so
 * Stop itself means waiting. The file is followed like a log: its tail the first time, then only
 * what was appended, and from the start again when it was started afresh.
 */
import path from 'node:path';
import { HOOK_STATES } from '../agents/hook-states.js';
import { LineFollower, MAX_LINE_BYTES } from '../files/follow.js';
import type { Activity } from '../model/model.js';
import { heldRequests, heldRequestsFor, heldRequestsProblem } from './held-requests.js';
import { canonicalSocket, parseEventLine } from './hook-line.js';

export { hookEventsFile, parseEventLine } from './hook-line.js';
export type { EventLine } from './hook-line.js';
import type { HeldRequest } from './held-requests.js';
import type { Cue } from './pane-reading.js';

/** How long a hook's "working" holds without another event (a turn longer than this is rare). */
export const WORKING_TTL_MS = 10 * 60_000;
/** How long a hook's "waiting" holds (the agent's process may be gone without a SessionEnd). */
export const WAITING_TTL_MS = 60 * 60_000;
const TAIL_BYTES = 256 * 1024;
const STEP_BYTES = 4 * 1024 * 1024;
const MAX_PANES = 5000;

export interface HookState {
  activity: Activity;
  cue: Cue;
  /** The event that said so, and when (epoch ms). */
  event: string;
  at: number;
  /** The tmux server socket the event came from, or null when its line does not say. */
  server: string | null;
}

/** What one event says the agent is doing, or null for an event that says nothing about it. */
export function stateOfEvent(event: string, notificationType: string | null): { activity: Activity; cue: Cue } | null {
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PreCompact':
    case 'SubagentStart':
    case 'TaskCompleted':
      // TaskCompleted: a teammate marking its task done is mid-turn (TeammateIdle follows when it
      // stops); the task file changed too, and the run's task folder is watched, so the table follows.
      return { activity: 'working', cue: 'interrupt-hint' };
    case 'PermissionRequest':
      return { activity: 'waiting', cue: 'question' };
    case 'Notification':
      if (notificationType === 'permission_prompt' || notificationType === 'elicitation_dialog')
        return { activity: 'waiting', cue: 'question' };
      if (notificationType === 'idle_prompt') return { activity: 'waiting', cue: 'prompt' };
      return null;
    case 'Stop':
    case 'SessionStart':
    case 'TeammateIdle':
      return { activity: 'waiting', cue: 'prompt' };
    case 'SessionEnd':
      return { activity: 'idle', cue: 'shell' };
    default:
      return null;
  }
}

/** The longest a request file may say it is held (held-requests.ts reads no longer hold), and a second. */
const MAX_HOLD_MS = 3601_000;

/**
 * What one event says, by Claude Code's names first, then by the other CLIs' own (Gemini CLI's
 * `BeforeAgent`, its `Notification` of type `ToolPermission`, …).
 */
function stateOfAnyEvent(event: string, notificationType: string | null): { activity: Activity; cue: Cue } | null {
  const claude = stateOfEvent(event, notificationType);
  if (claude) return claude;
  for (const state of HOOK_STATES) {
    const s = state(event, notificationType);
    if (s) return s;
  }
  return null;
}

/** The events file, followed: the newest state per pane. */
export class HookEvents {
  private states = new Map<string, HookState>();
  private transcripts = new Map<string, string>();
  /** When each pane last asked for permission (epoch ms): a request is held only within a hold of that. */
  private asked = new Map<string, number>();
  private readonly lines: LineFollower;

  constructor(readonly file: string) {
    this.lines = new LineFollower(file, TAIL_BYTES, STEP_BYTES);
  }

  /** Lines of the events file skipped for their length, since tower started following it. */
  private skipped = 0;

  /** Why some events were not read (a line past the follower's bound), or null. */
  get problem(): string | null {
    return this.skipped > 0
      ? `${this.file}: ${this.skipped} line(s) longer than ${MAX_LINE_BYTES / (1024 * 1024)} MB ` +
          `skipped (no hook of tower's writes one)`
      : null;
  }

  /** Reads what was appended since the last call; true when any pane's state changed. Never throws. */
  refresh(): boolean {
    let changed = false;
    const read = this.lines.read();
    if (read?.skipped) {
      this.skipped += read.skipped;
      changed = true;
    }
    for (const line of read?.lines ?? []) changed = this.take(line) || changed;
    return changed;
  }

  private take(line: string): boolean {
    const e = parseEventLine(line);
    // An agent outside tmux is no member's pane.
    if (!e || e.pane === '') return false;
    const key = eventKey(e.server, e.pane);
    if (e.transcript) remember(this.transcripts, key, e.transcript);
    const s = stateOfAnyEvent(e.event, e.notificationType);
    if (!s) return false;
    remember(this.states, key, { ...s, event: e.event, at: e.at, server: e.server });
    if (e.event === 'PermissionRequest') remember(this.asked, key, e.at);
    return true;
  }

  /**
   * What hooks last said of pane `paneId` of the server whose socket is `server`. A line that names
   * no server (written before the hook named it) speaks for tower's own server's pane only (`own`),
   * and only while no line naming the server is newer: the activity it gives is shown, never acted on.
   */
  private latest(server: string, paneId: string, own: boolean): HookState | null {
    const named = this.states.get(eventKey(server, paneId)) ?? null;
    if (!own) return named;
    const unnamed = this.states.get(eventKey(null, paneId)) ?? null;
    return unnamed && (!named || unnamed.at > named.at) ? unnamed : named;
  }

  /** Why held requests are not read, or not all (a folder others can write into, one too full), or null. */
  heldProblem(now: number): string | null {
    return heldRequestsProblem(path.dirname(path.dirname(this.file)), now);
  }

  /**
   * The permission requests tower's hook holds open for a pane of a server, oldest first. Looked for
   * only while the pane asked for permission within the longest hold: no other pane holds anything.
   * Not only while its last event is that request: a background subagent's request stays held
   * while the lead's tool runs and its events come.
   */
  heldFor(server: string, paneId: string, now: number): HeldRequest[] {
    const asked = this.asked.get(eventKey(server, paneId));
    if (asked === undefined || now - asked > MAX_HOLD_MS) return [];
    return heldRequestsFor(this.stateDir(), server, paneId, now);
  }

  /** Every request held now, whoever it is for (for those no member can be told to own). */
  heldNow(now: number): HeldRequest[] {
    return heldRequests(this.stateDir(), now);
  }

  private stateDir(): string {
    return path.dirname(path.dirname(this.file));
  }

  /** The transcript of the agent last seen in a pane of a server, as its hooks named it, or null. */
  transcriptOf(server: string, paneId: string, own: boolean): string | null {
    return (
      this.transcripts.get(eventKey(server, paneId)) ??
      (own ? this.transcripts.get(eventKey(null, paneId)) : null) ??
      null
    );
  }

  /** The state hooks give a pane of a server now, or null when none spoke lately enough. */
  stateOf(server: string, paneId: string, now: number, own: boolean): HookState | null {
    const s = this.latest(server, paneId, own);
    if (!s) return null;
    const ttl = s.activity === 'working' ? WORKING_TTL_MS : WAITING_TTL_MS;
    return now - s.at <= ttl ? s : null;
  }
}

/** Events are kept per server and pane: `%N` names a pane of one server only. */
function eventKey(server: string | null, paneId: string): string {
  return `${server === null ? '' : canonicalSocket(server)}\n${paneId}`;
}

/** Sets `key` as the newest entry of a map held to MAX_PANES (the oldest goes). */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_PANES) map.delete(map.keys().next().value!);
}
