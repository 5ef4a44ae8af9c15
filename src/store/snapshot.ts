/**
 * One snapshot of every run on the machine: discover roots, read each state directory with its
 * source, merge Claude teams, apply liveness from one pane list, give ids, sort.
 */
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { AppContext } from '../context/context.js';
import type { Problem, Run, Snapshot } from '../model/model.js';
import type { ReadSettings, Team } from '../systems/types.js';
import { deferredWork } from '../systems/deferred.js';
import type { PaneInfo } from '../tmux/client.js';
import { TmuxError } from '../tmux/errors.js';
import { SwarmScanner } from '../tmux/swarm.js';
import type { SwarmServer } from '../tmux/swarm.js';
import { assembleRuns, teamDirName } from './assemble.js';
import { discoverRoots, sourceKey, sourcesOfRoot } from './discover.js';
import type { Discovery, RunSource } from './discover.js';
import { claimedPanes, seatsByFolder } from './folder-panes.js';
import { applyLiveness, indexPanes } from './liveness.js';
import { tmuxDownProblem } from './tmux-down.js';
import { hookSeatsOnce } from './hook-leads.js';
import { loadLoneAgents } from './lone-agents.js';
import type { LoneAgentLister } from './lone-agents.js';
import type { LeadSeats } from './hook-leads.js';
import { defaultReaders, guarded, readSource, readTeamRun } from './readers.js';
import type { SourceReaders } from './readers.js';

/** What a snapshot is read from. */
export interface SnapshotInput {
  /** Explicit roots (--root and the config file). */
  roots: string[];
  claudeDir: string;
  /** The panes of one `list-panes -a`, or null when there is no tmux server. */
  panes: PaneInfo[] | null;
  /** Claude Code's swarm servers and their panes (default none). */
  swarms?: SwarmServer[] | undefined;
  settings: ReadSettings;
  /** Whether to add roots from pane and team cwds and tina's registry (default true). */
  discover?: boolean | undefined;
  /** $HOME, the limit of walking up from a cwd (default os.homedir()). */
  home?: string | undefined;
  /** The readers to use (default the real ones). */
  readers?: SourceReaders | undefined;
  /** Where Claude Code sessions' hooks last ran, for a lead with no pane (default none). */
  leadSeats?: LeadSeats | undefined;
  /** Lists the agents outside every run from the panes (default none: not listed). */
  loneAgents?: LoneAgentLister | null | undefined;
}

/** ReadSettings from the config (and tower's environment, which may name a harness operator) at a given time. */
export function settingsFrom(config: Config, now: number, env: NodeJS.ProcessEnv = {}): ReadSettings {
  return {
    now,
    staleHandoffMinutes: config.staleHandoffMinutes,
    heartbeatStaleSec: config.heartbeatStaleSec,
    contextThresholdPct: config.contextThresholdPct,
    env,
  };
}

const sessionsByPanes = new WeakMap<readonly PaneInfo[], ReadonlyMap<string, string>>();

/** The tmux session of each pane (pane id → session name), worked out once per pane list. */
export function paneSessionsOf(panes: readonly PaneInfo[] | null | undefined): ReadonlyMap<string, string> {
  if (!panes) return new Map();
  let map = sessionsByPanes.get(panes);
  if (!map) {
    map = new Map(panes.map((p) => [p.paneId, p.session]));
    sessionsByPanes.set(panes, map);
  }
  return map;
}

/** Reads every Claude team; a throwing reader is one problem. */
export function readAllTeams(
  claudeDir: string,
  readers: SourceReaders,
  problems: Problem[],
  reuse?: (dirName: string) => Team | null,
): Team[] {
  const file = path.join(claudeDir, 'teams');
  const r = guarded(
    'Claude teams',
    file,
    { teams: [], problems: [] },
    () => readers.readTeams(claudeDir, reuse),
    problems,
  );
  problems.push(...r.problems);
  return r.teams;
}

/** The roots and state directories to read, from everything discovery looks at. */
export function discoverSources(
  input: Pick<SnapshotInput, 'roots' | 'claudeDir' | 'discover' | 'home'> & {
    paneCwds: readonly string[];
    teamCwds: readonly (string | null)[];
  },
  readers: SourceReaders,
  problems: Problem[],
): { discovery: Discovery; sources: RunSource[] } {
  const discover = input.discover !== false;
  const sessionRoots: string[] = [];
  if (discover) {
    for (const m of readers.systems) {
      const registry = m.rootRegistry;
      if (!registry) continue;
      const none = { roots: [], problems: [] };
      const r = guarded(
        `${m.label} root registry`,
        path.join(input.claudeDir, registry.dir),
        none,
        () => registry.read(input.claudeDir),
        problems,
      );
      problems.push(...r.problems);
      sessionRoots.push(...r.roots);
    }
  }
  const discovery = discoverRoots({
    explicitRoots: input.roots,
    sessionRoots,
    cwds: discover ? [...input.paneCwds, ...input.teamCwds] : [],
    home: input.home,
  });
  problems.push(...discovery.problems);
  const sources = discovery.roots.flatMap((root) =>
    guarded('state directories', root, [] as RunSource[], () => sourcesOfRoot(root, readers.systems), problems),
  );
  return { discovery, sources };
}

/** Reads one snapshot, synchronously; never throws on bad files (they become problems). */
export function readSnapshot(input: SnapshotInput): Snapshot {
  const readers = input.readers ?? defaultReaders;
  const problems: Problem[] = [];
  return readSnapshotWithTeams(input, readAllTeams(input.claudeDir, readers, problems), problems);
}

/** readSnapshot with the Claude teams already read (buildSnapshot reads them while tmux answers). */
function readSnapshotWithTeams(input: SnapshotInput, teams: Team[], problems: Problem[]): Snapshot {
  const readers = input.readers ?? defaultReaders;
  const paneCwds = (input.panes ?? []).map((p) => p.cwd);
  const { sources } = discoverSources({ ...input, paneCwds, teamCwds: teams.map((t) => t.cwd) }, readers, problems);
  // Readers never run tmux: what the panes say about a project's liveness comes in with the settings.
  const reads = sources.map(
    (s) =>
      [
        sourceKey(s),
        readSource(s, teams, { ...input.settings, paneCwds, paneSessions: paneSessionsOf(input.panes) }, readers),
      ] as const,
  );
  const index = indexPanes(input.panes, input.swarms ?? []);
  if (index && input.leadSeats) index.leadSeats = input.leadSeats;
  const teamPairs = teams.map((t) => [teamDirName(t), t] as const);
  if (index && reads.some(([, r]) => seatsByFolder(r.run))) index.claimed = claimedPanes(reads, teamPairs);
  const lone = input.loneAgents ? input.loneAgents(input.panes, reads, teamPairs) : [];
  const runs = assembleRuns(lone.length > 0 ? [...reads, ...lone] : reads, teamPairs, {
    teamRun: (t) => readTeamRun(t, input.settings, readers),
    live: (r) => applyLiveness(r, index),
  });
  return { version: 1, generatedAt: new Date(input.settings.now).toISOString(), runs, problems };
}

/** One problem line for a failed `list-panes` that is not "no server". */
export function tmuxProblem(err: unknown): Problem {
  const msg = err instanceof TmuxError ? err.message : err instanceof Error ? err.message : String(err);
  return { file: null, message: `tmux: ${msg}; pane liveness is unknown` };
}

/** What one poll of tmux gave: tower's server's panes (null: no server), its problem, and the swarm servers. */
export interface PaneListing {
  panes: PaneInfo[] | null;
  problem: Problem | null;
  swarms: SwarmServer[];
  /** One problem per swarm server that failed in another way than being dead. */
  swarmProblems: Problem[];
  /** Tower's own server is not running (said apart from `problem`: swarm servers still count). */
  down?: Problem | null;
}

/** The scanner of Claude Code's swarm servers for a context (tower's own socket left out). */
export function swarmScannerFor(ctx: Pick<AppContext, 'tmux' | 'env'>): SwarmScanner {
  const own = ctx.tmux.socket.path ? path.resolve(ctx.tmux.socket.path) : null;
  return new SwarmScanner(ctx.env, {
    exclude: own ?? undefined,
    excludeName: ctx.tmux.socket.path ? undefined : ctx.tmux.socket.name,
  });
}

/**
 * Lists tower's server's panes once (null when there is no server; any other failure is returned
 * as a problem), and, at the same time, the panes of Claude Code's swarm servers.
 */
export async function listPanesForSnapshot(
  ctx: Pick<AppContext, 'tmux' | 'env'>,
  signal?: AbortSignal,
  scanner: SwarmScanner = swarmScannerFor(ctx),
): Promise<PaneListing> {
  const own = ctx.tmux.listPanesOrNull({ signal }).then(
    (panes) => ({ panes, problem: null as Problem | null }),
    (err: unknown) => ({ panes: null, problem: tmuxProblem(err) }),
  );
  const swarm = scanner.scan(signal).catch((err: unknown) => ({
    servers: [],
    problems: [`tmux: claude-swarm servers: ${err instanceof Error ? err.message : String(err)}`],
  }));
  const [{ panes, problem }, scan] = await Promise.all([own, swarm]);
  return {
    panes,
    problem,
    down: panes === null && problem === null ? tmuxDownProblem(ctx.tmux.socket) : null,
    swarms: scan.servers,
    swarmProblems: scan.problems.map((message) => ({ file: null, message })),
  };
}

/** Lists the panes once, discovers and reads: the snapshot of `tower status`. */
export async function buildSnapshot(
  ctx: AppContext,
  opts: { now?: number; complete?: boolean } = {},
): Promise<Snapshot> {
  const first = await readOnce(ctx, opts);
  // A reader that needed a module loaded on demand (a handoff's Markdown parser) read what it
  // could; once the module is there, the box is read again whole. The first frame does not wait.
  const waiting = opts.complete === false ? null : deferredWork();
  if (!waiting) return first;
  await waiting;
  return readOnce(ctx, opts);
}

async function readOnce(ctx: AppContext, opts: { now?: number }): Promise<Snapshot> {
  // tmux is spawned first and answers while the teams (the bulk of the files) are read.
  const listing = listPanesForSnapshot(ctx);
  const teamProblems: Problem[] = [];
  const teams = readAllTeams(ctx.claudeDir, defaultReaders, teamProblems);
  const { panes, problem, swarms, swarmProblems, down } = await listing;
  // The agent modules load only when there is a pane to tell (a box with no tmux carries none).
  const loneAgents = panes && panes.length > 0 ? await loadLoneAgents() : null;
  // In the live store's order: tmux, then teams, then discovery.
  const problems: Problem[] = [
    ...(down ? [down] : []),
    ...(problem ? [problem] : []),
    ...swarmProblems,
    ...teamProblems,
  ];
  const input: SnapshotInput = {
    roots: ctx.roots,
    claudeDir: ctx.claudeDir,
    panes,
    swarms,
    settings: settingsFrom(ctx.config, opts.now ?? Date.now(), ctx.env),
    discover: ctx.discover,
    home: ctx.env.HOME || undefined,
    // Read only when a lead waits for its hooks to seat it.
    leadSeats: teams.some(seatsWanted) ? hookSeatsOnce(ctx, swarms) : undefined,
    loneAgents,
  };
  return readSnapshotWithTeams(input, teams, problems);
}

/** Whether a team's lead may be placed by its hooks: in Claude Code's own process, with no pane, its session known. */
export function seatsWanted(team: Team): boolean {
  return team.members.some((m) => m.lead && m.state === 'in-process' && !m.paneId && m.sessionId !== undefined);
}

/**
 * Finds a run by what an operator typed: the exact id, else the exact name of one run, else the
 * one run whose id or name starts with it. Ambiguous or unknown queries give an error naming the choices.
 */
export function resolveRun(snapshot: Snapshot, query: string): { run: Run } | { error: string } {
  const q = query.trim();
  if (q === '') return { error: 'no run given' };
  const exact = snapshot.runs.find((r) => r.id === q);
  if (exact) return { run: exact };
  const named = snapshot.runs.filter((r) => r.name === q);
  if (named.length === 1 && named[0]) return { run: named[0] };
  const matches = snapshot.runs.filter((r) => r.id.startsWith(q) || r.name.startsWith(q));
  if (matches.length === 1 && matches[0]) return { run: matches[0] };
  if (matches.length === 0) {
    const known = snapshot.runs.map((r) => r.id);
    return { error: `no run matches "${q}"${known.length ? ` (runs: ${known.join(', ')})` : ' (no runs found)'}` };
  }
  return { error: `"${q}" is ambiguous: it matches ${matches.map((r) => r.id).join(', ')}` };
}
