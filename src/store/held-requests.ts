/**
 * Permission requests tower's PermissionRequest hook holds open (`tower hooks install
 * --hold-permissions SECONDS`): the hook writes `held/<epoch>-<pid>.req` under tower's hooks folder
 * (`<pane>\t<epoch s>\t<hold s>\t<server socket>`, the last missing from older hooks; then the
 * event's JSON) and waits for `held/<id>.answer`. Read here, bounded: so many files, so many bytes
 * each, and only those still inside their hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sanitizeLine } from '../text/sanitize.js';

/** The folder of held requests under tower's hooks folder. */
export const HELD_DIR = 'held';
/** At most this many request files are looked at (a folder full of leftovers is not read whole). */
const MAX_FILES = 200;
/** A request file is its first line and the event's JSON, whole up to the hook's 64 KiB. */
const MAX_BYTES = 65 * 1024;
/** The answer must land this long before the hold ends, or the hook may be gone when it does. */
export const ANSWER_MARGIN_MS = 1000;
const ID = /^(\d{1,12})-(\d{1,10})$/;
/** A socket path as the hook writes it: absolute, printable, short. */
const SOCKET = /^\/[^\u0000-\u001f\u007f]{0,199}$/;

/** One request held open for a pane. */
export interface HeldRequest {
  /** `<epoch>-<pid>` of the hook that holds it. */
  id: string;
  paneId: string;
  /** The socket of the tmux server of that pane, or null when the request does not say (an older hook). */
  server: string | null;
  /** When the hook started holding it and until when (epoch ms). */
  since: number;
  until: number;
  /** The tool asked about, and what it would run or touch, when the JSON names them (made safe). */
  tool: string | null;
  subject: string | null;
  /** The request file and where tower's answer goes. */
  file: string;
  answerFile: string;
}

/** The held-requests folder for tower's state dir (`$XDG_STATE_HOME/tower`). */
export function heldDir(towerState: string): string {
  return path.join(towerState, 'hooks', HELD_DIR);
}

function field(json: string, name: string): string | null {
  const m = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,400})"`).exec(json);
  if (!m?.[1]) return null;
  let v: string;
  try {
    v = JSON.parse(`"${m[1]}"`) as string;
  } catch {
    v = m[1];
  }
  return sanitizeLine(v).slice(0, 200) || null;
}

/** Reads one request file, or null when it is not one (or too big, or a link). */
export function readHeldRequest(dir: string, name: string): HeldRequest | null {
  const id = name.endsWith('.req') ? name.slice(0, -4) : '';
  if (!ID.test(id)) return null;
  const file = path.join(dir, name);
  let text: string;
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const nl = text.indexOf('\n');
  const [pane, start, hold, server] = (nl < 0 ? text : text.slice(0, nl)).split('\t');
  const since = Number(start) * 1000;
  const seconds = Number(hold);
  if (
    !pane ||
    !/^%\d{1,9}$/.test(pane) ||
    !Number.isFinite(since) ||
    !Number.isInteger(seconds) ||
    seconds <= 0 ||
    seconds > 3600 ||
    (server !== undefined && server !== '' && !SOCKET.test(server))
  )
    return null;
  const json = nl < 0 ? '' : text.slice(nl + 1);
  return {
    id,
    paneId: pane,
    server: server || null,
    since,
    until: since + seconds * 1000,
    tool: field(json, 'tool_name'),
    subject: field(json, 'command') ?? field(json, 'file_path') ?? field(json, 'url') ?? field(json, 'description'),
    file,
    answerFile: path.join(dir, `${id}.answer`),
  };
}

/** The request held open for a pane now that can still be answered (the newest), or null. */
export function heldRequestFor(towerState: string, paneId: string, now: number = Date.now()): HeldRequest | null {
  const dir = heldDir(towerState);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.req'));
  } catch {
    return null;
  }
  // Newest first (the id starts with the epoch); the oldest leftovers are not read past the bound.
  names.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  let best: HeldRequest | null = null;
  for (const name of names.slice(0, MAX_FILES)) {
    const r = readHeldRequest(dir, name);
    if (!r || r.paneId !== paneId || now > r.until - ANSWER_MARGIN_MS) continue;
    if (!best || r.since > best.since) best = r;
  }
  return best;
}
