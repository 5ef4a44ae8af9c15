/**
 * Whether a pane is the member's, by what each side knows. A `%N` names a pane of one tmux server
 * only, and a server numbers its panes from `%0` again each time it starts, so a team file left
 * from an earlier server names panes that now belong to other agents. Claude Code writes, per
 * member, when it joined and where it works, and for the lead the process it runs as; tmux and
 * /proc give the pane's first process, its start, and where the pane works. A pane contradicts the
 * member when:
 * - its first process started after the member joined (a pane is made before the agent in it is
 *   recorded: one made later is another agent's);
 * - it works outside the member's folder (an agent may go into a subfolder, never out of its project);
 * - the lead's recorded process is alive in another pane, or on another server (in no pane of the
 *   servers tower reads).
 * Missing evidence contradicts nothing: a pane is then the member's as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Member } from '../model/model.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { PaneInfo } from '../tmux/client.js';
import { ancestors, procStart, samePidSpace, ticksToEpochMs } from '../tmux/proc-start.js';

/**
 * How much later than the member's join a pane's process may seem to start and still be its own:
 * the boot time /proc gives is whole seconds, and a clock may be set a little after boot.
 */
export const START_SLACK_MS = 5000;

/** One tmux server's panes as the evidence needs them: by id, and by first process (made on first use). */
export interface ServerPanes {
  /** null: tower's own server; else the swarm server's socket name. */
  name: string | null;
  byId: Map<string, PaneInfo>;
  byPid?: Map<number, PaneInfo>;
}

/** Where a lead's recorded process is now: alive in a pane of a server, alive outside every pane, or not alive. */
export type LeadPlace =
  { alive: false } | { alive: true; server: string | null; paneId: string } | { alive: true; server: undefined };

/** The start of a pane's first process in clock ticks, read once per pid for one poll's index. */
export class StartBook {
  private readonly starts = new Map<number, number | null>();
  startOf(pid: number): number | null {
    let s = this.starts.get(pid);
    if (s === undefined) {
      s = procStart(pid);
      this.starts.set(pid, s);
    }
    return s;
  }
}

/** The server's name as said in a reason: `tower's own server` or the swarm socket's name. */
export function serverLabel(server: string | null | undefined): string {
  return server ? sanitizeLine(server) : "tower's own server";
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const real = new Map<string, string>();
/** A folder with its links resolved (as given when it cannot be), remembered: a few dozen folders on a box. */
function resolved(dir: string): string {
  let r = real.get(dir);
  if (r === undefined) {
    try {
      r = fs.realpathSync(dir);
    } catch {
      r = dir;
    }
    if (real.size > 4096) real.clear();
    real.set(dir, r);
  }
  return r;
}

function inside(dir: string, root: string): boolean {
  const r = root.endsWith('/') ? root.slice(0, -1) : root;
  return dir === r || dir.startsWith(`${r}/`);
}

/**
 * Whether a pane working in `dir` works in the member's folder `cwd` (or below it), as written or with links
 * resolved.
 */
export function worksIn(dir: string, cwd: string): boolean {
  return inside(dir, cwd) || inside(resolved(dir), resolved(cwd));
}

/**
 * Where the lead's recorded process is, among the servers given. Null: no process recorded (or of another pid
 * space).
 */
export function leadPlace(m: Member, servers: readonly ServerPanes[], starts: StartBook): LeadPlace | null {
  const lp = m.leadProcess;
  if (!lp || !samePidSpace(lp.pidSpace)) return null;
  if (starts.startOf(lp.pid) !== lp.procStart) return { alive: false };
  const chain = ancestors(lp.pid);
  for (const s of servers) {
    s.byPid ??= new Map([...s.byId.values()].map((p) => [p.pid, p] as const));
    for (const pid of chain) {
      const pane = s.byPid.get(pid);
      if (pane) return { alive: true, server: s.name, paneId: pane.paneId };
    }
  }
  return { alive: true, server: undefined };
}

/**
 * Why `pane` (on `server`) is not member `m`'s, or null when nothing says so. `lead` is where the
 * member's lead process is (leadPlace), for a lead.
 */
export function contradiction(
  m: Member,
  pane: PaneInfo,
  server: string | null,
  starts: StartBook,
  lead: LeadPlace | null,
): string | null {
  const where = `${sanitizeLine(pane.paneId)} on ${serverLabel(server)}`;
  if (lead?.alive === true && lead.server !== undefined && (lead.server !== server || lead.paneId !== pane.paneId)) {
    return (
      `pane ${where} is not where ${m.name}'s process ${m.leadProcess?.pid ?? ''} runs ` +
      `(${sanitizeLine(lead.paneId)} on ${serverLabel(lead.server)})`
    );
  }
  // Alive, yet in no pane of any server tower reads: it runs on another tmux server (or outside tmux).
  if (lead?.alive === true && lead.server === undefined)
    return (
      `pane ${where} is not where ${m.name}'s process ${m.leadProcess?.pid ?? ''} runs (in no ` +
      `pane of the servers tower reads)`
    );
  if (m.joinedAt !== undefined) {
    const ticks = starts.startOf(pane.pid);
    const started = ticks === null ? null : ticksToEpochMs(ticks);
    if (started !== null && started > m.joinedAt + START_SLACK_MS)
      return `pane ${where} started at ${iso(started)}, after ${m.name} joined (${iso(m.joinedAt)}): another agent's`;
  }
  if (m.cwd && path.isAbsolute(m.cwd) && path.isAbsolute(pane.cwd) && !worksIn(pane.cwd, m.cwd))
    return `pane ${where} works in ${sanitizeLine(pane.cwd)}, ${m.name} in ${m.cwd}`;
  return null;
}
