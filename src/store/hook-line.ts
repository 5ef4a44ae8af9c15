/**
 * One line of the events file tower's hook appends to (commands/hooks-settings.ts writes it), read
 * by pattern, and the socket spelling its server is compared in. Apart from the followers of the
 * file (store/hook-events.ts, store/hook-leads.ts) so that reading a line loads nothing else.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Transcripts named by hook events, per pane: the pane ↔ session link the context gauge needs. */
const TRANSCRIPT = /"transcript_path"\s*:\s*"(\/[^"\\\u0000-\u001f]{1,1000}\.jsonl)"/;

/** The events file under tower's state dir. */
export function hookEventsFile(stateHome: string): string {
  return path.join(stateHome, 'hooks', 'events');
}

/**
 * One line of the events file: `<epoch s>\t<pane>\t<server socket>\t<event JSON>`, or the older
 * `<epoch s>\t<pane>\t<event JSON>` written before the hook named the server.
 */
export interface EventLine {
  at: number;
  /** The agent's tmux pane, or '' for an agent outside tmux. */
  pane: string;
  /**
   * The socket of the tmux server the pane belongs to (`$TMUX` up to its first comma), or null when
   * the line does not say (outside tmux, or a line from before the hook named it).
   */
  server: string | null;
  event: string;
  notificationType: string | null;
  transcript: string | null;
  /** The Claude Code session that fired it (`session_id`), or null. */
  sessionId: string | null;
  /** Why a SessionEnd ended its session (`clear`, `logout`, `prompt_input_exit`, …); null for other events. */
  endReason: string | null;
}

/** A session id as Claude Code writes one (a UUID); the hook puts `session_id` first in its JSON. */
const SESSION_ID = /"session_id"\s*:\s*"([A-Za-z0-9_-]{1,100})"/;

/** A socket path as the hook writes it: absolute, printable, short (a unix socket's path is ≤ 108 bytes). */
const SOCKET = /^\/[^\u0000-\u001f\u007f]{0,199}$/;

/**
 * Reads one line of the events file, or null when it is not one. Only the few fields needed are
 * taken, by pattern: the JSON may be cut at the hook's bound, and the pane must be a pane id or empty.
 */
export function parseEventLine(line: string): EventLine | null {
  const [at, pane, third, ...rest] = line.split('\t');
  if (third === undefined) return null;
  // The older form's third field is the JSON itself; a socket path starts with `/`, or is empty.
  const old = third.startsWith('{');
  const server = old ? null : third;
  const json = old ? [third, ...rest].join('\t') : rest.join('\t');
  const ms = Number(at) * 1000;
  if (pane === undefined || !/^(%\d+)?$/.test(pane) || !json || !Number.isFinite(ms)) return null;
  if (server !== null && server !== '' && !SOCKET.test(server)) return null;
  const event = /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(json)?.[1];
  if (!event) return null;
  const transcript = TRANSCRIPT.exec(json)?.[1] ?? null;
  return {
    at: ms,
    pane,
    server: server || null,
    event,
    // Claude Code writes snake_case (`permission_prompt`), Gemini CLI PascalCase (`ToolPermission`).
    notificationType: /"notification_type"\s*:\s*"([A-Za-z_]{1,40})"/.exec(json)?.[1] ?? null,
    transcript: transcript && !transcript.split('/').includes('..') ? transcript : null,
    sessionId: SESSION_ID.exec(json)?.[1] ?? null,
    endReason: event === 'SessionEnd' ? (/"reason"\s*:\s*"([a-z_]{1,40})"/.exec(json)?.[1] ?? null) : null,
  };
}

/**
 * A socket path in one spelling: its folder with links resolved, as tmux writes it in `$TMUX` (tmux
 * resolves its socket folder), so tower's own idea of a socket and the hook's compare equal.
 */
export function canonicalSocket(file: string): string {
  try {
    return path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}
