/**
 * Permission requests tower's PermissionRequest hook holds open (`tower hooks install
 * --hold-permissions SECONDS`): the hook writes `held/<epoch>-<pid>.req` under tower's hooks folder
 * (`<pane>\t<epoch s>\t<hold s>\t<server socket>`, the last missing from older hooks; then the
 * event's JSON) and waits for `held/<id>.answer`. Read here, bounded: so many names listed, so many
 * files read, so many bytes each, and only those still inside their hold, from a folder no one else
 * can write into (held-folder.ts), whose hook still runs. The listing is read again only when the
 * folder changed; leftovers of hooks that are gone are removed as they are met.
 */
import fs from 'node:fs';
import path from 'node:path';
import { heldFolderProblem, hookAlive } from './held-folder.js';
import { readHeldInput } from './held-input.js';
import { canonicalSocket } from './hook-line.js';

export { canonicalSocket } from './hook-line.js';

/** The folder of held requests under tower's hooks folder. */
export const HELD_DIR = 'held';
/** At most this many names of the folder are listed (a folder of 100,000 leftovers is not read whole). */
const MAX_NAMES = 2000;
/** At most this many request files are read, newest first. */
const MAX_FILES = 200;
/** How long a listing of a folder too full to list at once is used before the next names are listed. */
const RELIST_MS = 1000;
/** A listing is kept only for a folder unchanged this long before it was listed. */
const SETTLED_MS = 1000;
/** At most this many leftovers are removed per listing (the rest at the next). */
const MAX_REMOVALS = 500;
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
  /** The hook's shell, which holds the request while it runs. */
  pid: number;
  paneId: string;
  /** The socket of the tmux server of that pane, or null when the request does not say (an older hook). */
  server: string | null;
  /** When the hook started holding it and until when (epoch ms). */
  since: number;
  until: number;
  /** The tool asked about, and the line that says what it would run or touch (cut and marked). */
  tool: string | null;
  subject: string | null;
  /** Whether `subject` leaves anything out; the whole input, to read before answering. */
  cut: boolean;
  whole: string | null;
  /** sha256 (hex) of the tool and its input: an answer is bound to this id and this hash. */
  hash: string | null;
  /** How many characters `whole` writes out as `⟨U+XXXX⟩` (hidden or look-alike ones). */
  marked: number;
  /** The main field's value as the agent's dialog draws it (to tie the dialog to the request), or null. */
  shown: string | null;
  shownIsPath: boolean;
  /** Why the input cannot be shown whole (tower then does not answer through the hook), or null. */
  unreadable: string | null;
  /** The request file and where tower's answer goes. */
  file: string;
  answerFile: string;
}

/** The held-requests folder for tower's state dir (`$XDG_STATE_HOME/tower`). */
export function heldDir(towerState: string): string {
  return path.join(towerState, 'hooks', HELD_DIR);
}

/** Reads one request file, or null when it is not one (or too big, or a link). */
export function readHeldRequest(dir: string, name: string): HeldRequest | null {
  const id = name.endsWith('.req') ? name.slice(0, -4) : '';
  const m = ID.exec(id);
  if (!m) return null;
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
  const input = readHeldInput(nl < 0 ? '' : text.slice(nl + 1).trimEnd());
  const readable = 'tool' in input ? input : null;
  return {
    id,
    pid: Number(m[2]),
    paneId: pane,
    server: server || null,
    since,
    until: since + seconds * 1000,
    tool: readable?.tool ?? null,
    subject: readable?.subject ?? null,
    cut: readable?.cut ?? false,
    whole: readable?.whole ?? null,
    hash: readable?.hash ?? null,
    marked: readable?.marked ?? 0,
    shown: readable?.shown ?? null,
    shownIsPath: readable?.shownIsPath ?? false,
    unreadable: 'unreadable' in input ? input.unreadable : null,
    file,
    answerFile: path.join(dir, `${id}.answer`),
  };
}

/** A folder's listing as last read, with the requests read from it. */
interface Listing {
  /** When it was read (epoch ms). */
  at: number;
  mtimeMs: number;
  ino: number;
  requests: HeldRequest[];
  problem: string | null;
}
const listings = new Map<string, Listing>();

/** Up to `max` names of a folder, in the order the folder gives them; and whether there were more. */
function someNames(dir: string, max: number): { names: string[]; more: boolean } {
  const names: string[] = [];
  const d = fs.opendirSync(dir);
  try {
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      if (names.length >= max) return { names, more: true };
      names.push(e.name);
    }
  } finally {
    d.closeSync();
  }
  return { names, more: false };
}

function unlink(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // Gone already (the hook took its own away).
  }
}

/**
 * Wakes what waits on a held request's FIFO (`<id>.wake`, see src/commands/hooks-settings.ts): one
 * byte, written only into a FIFO of this user's that something reads, never blocking and never
 * through a link. A hook line from before the FIFO, or a hook gone, leaves nothing to wake.
 */
export function wakeHeld(file: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
    const st = fs.fstatSync(fd);
    if (st.isFIFO() && st.uid === process.getuid?.()) fs.writeSync(fd, '\n');
  } catch {
    // No FIFO, no reader (ENXIO), or a full one: the answer file speaks for itself.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The folder's requests. Its safety is looked at every time (three lstats); its names are listed
 * again only when it changed, or while it holds more than are listed at once. Leftovers met (their
 * hook gone) are removed, so a folder of them shrinks with every look.
 */
function listing(towerState: string, now: number): Listing | null {
  const dir = heldDir(towerState);
  const unsafe = heldFolderProblem(towerState, dir);
  if (unsafe) return { at: now, mtimeMs: 0, ino: 0, requests: [], problem: unsafe };
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch {
    listings.delete(dir);
    return null;
  }
  const last = listings.get(dir);
  if (last && last.ino === st.ino && (last.mtimeMs === st.mtimeMs || (last.problem && now - last.at < RELIST_MS)))
    return last;
  const listedAt = Date.now();
  let found: { names: string[]; more: boolean };
  try {
    found = someNames(dir, MAX_NAMES);
  } catch {
    return null;
  }
  const ids: { name: string; epoch: number; pid: number }[] = [];
  for (const name of found.names) {
    const m = name.endsWith('.req') ? ID.exec(name.slice(0, -4)) : null;
    if (m) ids.push({ name, epoch: Number(m[1]), pid: Number(m[2]) });
  }
  // Newest first (the id starts with the epoch); the oldest leftovers are not read past the bound.
  // Numbers, not localeCompare: on 2,000 names that took ~1 s a look.
  ids.sort((a, b) => b.epoch - a.epoch || b.pid - a.pid);
  const requests: HeldRequest[] = [];
  let removed = 0;
  for (const { name, epoch, pid } of ids) {
    const gone = !hookAlive(pid, epoch);
    if (gone && removed < MAX_REMOVALS) {
      // The hook that held it is gone: nothing will ever read an answer to it.
      unlink(path.join(dir, name));
      unlink(path.join(dir, `${name.slice(0, -4)}.answer`));
      unlink(path.join(dir, `${name.slice(0, -4)}.wake`));
      removed++;
    }
    const r = !gone && requests.length < MAX_FILES ? readHeldRequest(dir, name) : null;
    if (r && now <= r.until) requests.push(r);
    if (requests.length >= MAX_FILES && removed >= MAX_REMOVALS) break;
  }
  const problem = found.more
    ? `${dir} holds more than ${MAX_NAMES} names: ${MAX_NAMES} are read at a time, and leftovers of ` +
      `hooks that are gone are removed as they are met`
    : null;
  const after = removed > 0 ? fs.statSync(dir) : st;
  // A folder holding more than one listing is listed again (the next names) a while later, not at
  // every member's look: each listing of 2,000 names with 500 leftovers removed costs ~70 ms.
  // A folder's time moves in coarse ticks (a few ms): one changed again within the tick it was
  // listed in keeps its time. Only a listing made a second after the last change is kept for it.
  const settled = !found.more && after.mtimeMs < listedAt - SETTLED_MS;
  const out = { at: now, mtimeMs: settled ? after.mtimeMs : -1, ino: after.ino, requests, problem };
  listings.set(dir, out);
  return out;
}

/** Why held requests are not read, or not all of them (an unsafe folder, one too full), or null. */
export function heldRequestsProblem(towerState: string, now: number = Date.now()): string | null {
  return listing(towerState, now)?.problem ?? null;
}

/**
 * Whether a request is from the server whose socket is `server` (a request that names none is from no known
 * server).
 */
export function fromServer(r: HeldRequest, server: string | null): boolean {
  return r.server !== null && server !== null && canonicalSocket(r.server) === canonicalSocket(server);
}

/** Every request held now that can still be answered, whoever it is for (whose hook still runs). */
export function heldRequests(towerState: string, now: number = Date.now()): HeldRequest[] {
  const l = listing(towerState, now);
  if (!l) return [];
  return l.requests.filter((r) => now <= r.until - ANSWER_MARGIN_MS && hookAlive(r.pid, r.since / 1000));
}

/**
 * The requests held open now for pane `paneId` of the tmux server whose socket is `server`, oldest
 * first. A pane id names a pane of one server only: a request from another server's `%N`, or one
 * that names no server (an older hook), is never this pane's. A request whose hook is gone is never
 * one (and is removed); nor is any in a folder others can write into. A pane may have more than one
 * held at once (a background subagent asks while its lead's request is held): each is its own.
 */
export function heldRequestsFor(
  towerState: string,
  server: string | null,
  paneId: string,
  now: number = Date.now(),
): HeldRequest[] {
  const l = listing(towerState, now);
  if (!l) return [];
  const out: HeldRequest[] = [];
  for (const r of l.requests) {
    if (r.paneId !== paneId || !fromServer(r, server) || now > r.until - ANSWER_MARGIN_MS) continue;
    if (!hookAlive(r.pid, r.since / 1000)) {
      fs.rmSync(r.file, { force: true });
      continue;
    }
    out.push(r);
  }
  return out.sort((a, b) => a.since - b.since || a.pid - b.pid);
}

/** The newest request held open now for pane `paneId` of the server `server`, or null (heldRequestsFor). */
export function heldRequestFor(
  towerState: string,
  server: string | null,
  paneId: string,
  now: number = Date.now(),
): HeldRequest | null {
  return heldRequestsFor(towerState, server, paneId, now).at(-1) ?? null;
}

/** The request `id` as its file says now, or null when it is gone (answered, given up, its hook ended). */
export function heldRequestNow(dir: string, id: string): HeldRequest | null {
  if (!ID.test(id)) return null;
  const r = readHeldRequest(dir, `${id}.req`);
  return r && hookAlive(r.pid, r.since / 1000) ? r : null;
}
