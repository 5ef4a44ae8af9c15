/**
 * What Claude Code's hooks said each agent is doing: the events tower's hook line appends to
 * `$XDG_STATE_HOME/tower/hooks/events` (`<epoch s>\t<$TMUX_PANE>\t<event JSON>` per line). They are
 * the first source of a member's activity; the screen is read where no hook has spoken lately.
 *
 * Known holes, handled: an Esc interrupt fires no hook, so "working" from a hook is trusted for a
 * while only (WORKING_TTL_MS), then the pane is read again; `idle_prompt` comes ~60 s after Stop, so
 * Stop itself means waiting. The file is followed like a log: its tail the first time, then only
 * what was appended, and from the start again when it was started afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Activity } from '../model.js';
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
}

/** Transcripts named by hook events, per pane: the pane ↔ session link the context gauge needs. */
const TRANSCRIPT = /"transcript_path"\s*:\s*"(\/[^"\\\u0000-\u001f]{1,1000}\.jsonl)"/;

/** The events file under tower's state dir. */
export function hookEventsFile(stateHome: string): string {
  return path.join(stateHome, 'hooks', 'events');
}

/** What one event says the agent is doing, or null for an event that says nothing about it. */
export function stateOfEvent(event: string, notificationType: string | null): { activity: Activity; cue: Cue } | null {
  switch (event) {
    case 'UserPromptSubmit':
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PreCompact':
    case 'SubagentStart':
      return { activity: 'working', cue: 'interrupt-hint' };
    case 'PermissionRequest':
      return { activity: 'waiting', cue: 'question' };
    case 'Notification':
      if (notificationType === 'permission_prompt' || notificationType === 'elicitation_dialog') return { activity: 'waiting', cue: 'question' };
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

/** The events file, followed: the newest state per pane. */
export class HookEvents {
  private states = new Map<string, HookState>();
  private transcripts = new Map<string, string>();
  private offset = 0;
  private size = -1;
  private partial = '';

  constructor(readonly file: string) {}

  /** Reads what was appended since the last call; true when any pane's state changed. Never throws. */
  refresh(): boolean {
    let size: number;
    try {
      size = fs.statSync(this.file).size;
    } catch {
      return false;
    }
    if (size < this.size || this.size < 0) {
      // First look, or started afresh: its tail only; a first partial line there is not an event.
      this.offset = Math.max(0, size - TAIL_BYTES);
      this.partial = this.offset > 0 ? '\u0000' : '';
    }
    this.size = size;
    if (size <= this.offset) return false;
    const to = Math.min(size, this.offset + STEP_BYTES);
    let text: string;
    try {
      const fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      try {
        const buf = Buffer.allocUnsafe(to - this.offset);
        const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
        text = buf.toString('utf8', 0, n);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return false;
    }
    this.offset = to;
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (lines[0]?.startsWith('\u0000')) lines.shift();
    let changed = false;
    for (const line of lines) changed = this.take(line) || changed;
    return changed;
  }

  private take(line: string): boolean {
    const [at, pane, json] = line.split('\t');
    if (!pane || !/^%\d+$/.test(pane) || !json) return false;
    // Only the few fields needed, by pattern: the JSON may be cut at the hook's bound.
    const event = /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(json)?.[1];
    if (!event) return false;
    const transcript = TRANSCRIPT.exec(json)?.[1];
    if (transcript && !transcript.split('/').includes('..')) {
      this.transcripts.delete(pane);
      this.transcripts.set(pane, transcript);
      if (this.transcripts.size > MAX_PANES) this.transcripts.delete(this.transcripts.keys().next().value!);
    }
    const type = /"notification_type"\s*:\s*"([a-z_]+)"/.exec(json)?.[1] ?? null;
    const s = stateOfEvent(event, type);
    const ms = Number(at) * 1000;
    if (!s || !Number.isFinite(ms)) return false;
    this.states.delete(pane);
    this.states.set(pane, { ...s, event, at: ms });
    if (this.states.size > MAX_PANES) this.states.delete(this.states.keys().next().value!);
    return true;
  }

  /** The transcript of the agent last seen in a pane, as its hooks named it, or null. */
  transcriptOf(paneId: string): string | null {
    return this.transcripts.get(paneId) ?? null;
  }

  /** The state hooks give a pane now, or null when none spoke lately enough. */
  stateOf(paneId: string, now: number): HookState | null {
    const s = this.states.get(paneId);
    if (!s) return null;
    const ttl = s.activity === 'working' ? WORKING_TTL_MS : WAITING_TTL_MS;
    return now - s.at <= ttl ? s : null;
  }
}
