/**
 * A running demo, as another tower finds it. Each demo runs on a tmux server of its own, which
 * names its sandbox in a user option (`@tower-sandbox`); the sandbox's marker file says the rest
 * (its roots, its Claude dir, the state dir its actions are audited in). A server that runs is a
 * demo that runs: nothing is left to go stale when a demo ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TmuxClient, socketFile } from '../tmux/client.js';
import { TmuxError } from '../tmux/errors.js';

/** The file that marks a directory as a tower demo sandbox, and says what runs there. */
export const SANDBOX_MARKER = '.tower-demo';
/** The tmux user option in which a demo's server names its sandbox. */
export const SANDBOX_OPTION = '@tower-sandbox';
/** The socket names a demo takes when none is given (`tower-demo-<6 characters>`). */
export const DEMO_SOCKET_PREFIX = 'tower-demo-';
/** At most this many demo servers are asked when looking for the running one. */
const MAX_DEMO_SERVERS = 32;
/** One question to a demo's server: it answers at once, or it is not the demo we look for. */
const ASK_TIMEOUT_MS = 1500;

/** What a sandbox's marker records. */
export interface DemoRecord {
  /** The sandbox (real path). */
  dir: string;
  /** The tmux socket name (`-L`) of the demo's server. */
  socketName: string;
  roots: string[];
  claudeDir: string;
  /** `XDG_STATE_HOME` for the demo's actions: their audit log stays in the sandbox. */
  stateHome: string;
  /** The `tower demo` process that built it. */
  pid: number;
}

/** No running demo fits what was asked; the message says why and what to do. */
export class DemoTargetError extends Error {
  override readonly name = 'DemoTargetError';
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** The record in `dir`'s marker, or null when it has none (or one from before records, or not ours). */
export function readDemoRecord(dir: string): DemoRecord | null {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, SANDBOX_MARKER), 'utf8'));
  } catch {
    return null;
  }
  const r = raw as Partial<Record<keyof DemoRecord, unknown>>;
  if (typeof raw !== 'object' || raw === null) return null;
  if (typeof r.socketName !== 'string' || typeof r.claudeDir !== 'string' || typeof r.stateHome !== 'string')
    return null;
  if (!isStringArray(r.roots) || typeof r.pid !== 'number') return null;
  // Everything it names lies inside the sandbox: a marker never points tower elsewhere.
  const inside = (p: string) => path.isAbsolute(p) && !path.relative(dir, p).startsWith('..');
  if (![r.claudeDir, r.stateHome, ...r.roots].every(inside)) return null;
  return {
    dir,
    socketName: r.socketName,
    roots: r.roots,
    claudeDir: r.claudeDir,
    stateHome: r.stateHome,
    pid: r.pid,
  };
}

/** Writes the marker of a sandbox with what runs there. */
export function writeDemoRecord(rec: DemoRecord): void {
  const { dir, ...rest } = rec;
  const body = { by: 'tower demo', createdAt: new Date().toISOString(), ...rest };
  writeMarker(dir, `${JSON.stringify(body, null, 2)}\n`);
}

/**
 * Writes a sandbox's marker whole or not at all (a temp file renamed over it): `tower status
 * --demo` and a new demo read it while the demo is built and runs.
 */
export function writeMarker(dir: string, text: string): void {
  const file = path.join(dir, SANDBOX_MARKER);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}

/** The sandbox a tmux server says it serves, or null when no server runs there or it serves none. */
export async function servedSandbox(tmux: TmuxClient): Promise<string | null> {
  try {
    const out = (await tmux.run(['show-options', '-gqv', SANDBOX_OPTION], { timeoutMs: ASK_TIMEOUT_MS })).trim();
    return out === '' ? null : out;
  } catch (err) {
    if (err instanceof TmuxError) return null;
    throw err;
  }
}

/** Whether a server runs on socket `name` (its socket file exists and it answers). */
export async function serverRuns(env: NodeJS.ProcessEnv, name: string): Promise<boolean> {
  if (!fs.existsSync(socketFile({ name }, env))) return false;
  try {
    await new TmuxClient({ name }, ASK_TIMEOUT_MS).run(['list-sessions']);
    return true;
  } catch (err) {
    if (err instanceof TmuxError) return false;
    throw err;
  }
}

/** The demo whose server runs on socket `name`, or null. */
async function demoOn(env: NodeJS.ProcessEnv, name: string): Promise<DemoRecord | null> {
  if (!fs.existsSync(socketFile({ name }, env))) return null;
  const dir = await servedSandbox(new TmuxClient({ name }, ASK_TIMEOUT_MS));
  if (dir === null || !path.isAbsolute(dir)) return null;
  const rec = readDemoRecord(dir);
  return rec && rec.socketName === name ? rec : null;
}

/**
 * The running demo `--demo` points at: the one on `-L NAME` when given, else the only one running.
 * Throws DemoTargetError when there is none, or more than one to choose from.
 */
export async function findRunningDemo(env: NodeJS.ProcessEnv, socketName?: string): Promise<DemoRecord> {
  if (socketName !== undefined) {
    const rec = await demoOn(env, socketName);
    if (rec) return rec;
    if (!(await serverRuns(env, socketName)))
      throw new DemoTargetError(`--demo: tmux server -L ${socketName} is not running (is the demo still open?)`);
    throw new DemoTargetError(`--demo: tmux server -L ${socketName} runs no tower demo`);
  }
  const found = await runningDemos(env);
  const [only, ...more] = found;
  if (!only) throw new DemoTargetError('--demo: no demo is running (npm start or tower demo opens one)');
  if (more.length > 0) {
    const list = found.map(demoLabel).join(', ');
    throw new DemoTargetError(`--demo: ${found.length} demos are running: ${list}; name one with --demo -L NAME`);
  }
  return only;
}

/** The demos whose servers run now (on `tower-demo-*` sockets), at most MAX_DEMO_SERVERS asked. */
export async function runningDemos(env: NodeJS.ProcessEnv): Promise<DemoRecord[]> {
  const dir = path.dirname(socketFile({ name: 'x' }, env));
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(DEMO_SOCKET_PREFIX));
  } catch {
    // No socket folder: no tmux server runs at all.
  }
  const found: DemoRecord[] = [];
  for (const name of names.sort().slice(0, MAX_DEMO_SERVERS)) {
    const rec = await demoOn(env, name);
    if (rec) found.push(rec);
  }
  return found;
}

/**
 * Whether a demo's control room is open: the `tower demo` that built it still runs (a demo built
 * with --no-ui, or whose tower was killed, runs its agents with nobody watching them).
 */
export function hasControlRoom(rec: DemoRecord): boolean {
  try {
    process.kill(rec.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A demo as a list names it: its server, its sandbox, and whether it has a control room. */
export function demoLabel(rec: DemoRecord): string {
  return `-L ${rec.socketName} (${rec.dir}${hasControlRoom(rec) ? '' : ', no control room'})`;
}
