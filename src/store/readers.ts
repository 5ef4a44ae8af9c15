/**
 * The source readers the store calls, as one table so a test can swap one in (e.g. a reader that
 * throws), and the guarded calls: a reader that throws is a bug, and becomes a problem on a run of
 * unknown status instead of a crash.
 */
import path from 'node:path';
import { emptyRun } from '../model/model.js';
import type { Gate, Problem, Run, System } from '../model/model.js';
import type { SystemModule, TeamReaders } from '../systems/module.js';
import { SYSTEM_MODULES, teamModule } from '../systems/registry.js';
import type { ReadSettings, Team } from '../systems/types.js';
import { unlistable } from '../files/look.js';
import { sanitizeLine } from '../text/sanitize.js';
import type { RunSource } from './discover.js';

/** Every reader the store uses: the Claude team readers and the system modules, in registry order. */
export interface SourceReaders extends TeamReaders {
  /** The system a team read on its own is a run of. */
  teamSystem: System;
  systems: readonly SystemModule[];
}

/** The real readers. */
const TEAMS = teamModule();
export const defaultReaders: SourceReaders = { ...TEAMS.teams, teamSystem: TEAMS.system, systems: SYSTEM_MODULES };

/** The readers with one system's run reader replaced (tests count or break one system's reads). */
export function withRunReader(
  readers: SourceReaders,
  system: System,
  readRun: NonNullable<SystemModule['readRun']>,
): SourceReaders {
  return { ...readers, systems: readers.systems.map((m) => (m.system === system ? { ...m, readRun } : m)) };
}

/** Whether runs of `system` take in Claude teams (and so are re-read when a team changes). */
export function mergesTeams(readers: SourceReaders, system: System): boolean {
  return readers.systems.some((m) => m.system === system && m.mergesTeams);
}

/** The outcome of reading one state directory. */
export interface SourceRead {
  source: RunSource;
  run: Run;
  /** Claude teams the run took in, so they are not listed again as runs of their own. */
  teamNames: string[];
  /** Read again every poll tick (its data is fetched, not watched). */
  polled?: boolean;
}

function failure(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return sanitizeLine(msg).slice(0, 300);
}

const GATE_ORDER: Record<Gate['kind'], number> = { escalation: 0, context: 1, checkpoint: 2, approval: 2 };

/** Gates in the order an operator wants them: pending before granted, escalations first; stable otherwise. */
export function orderGates(run: Run): Run {
  const rank = (g: Gate) => (g.state === 'pending' ? 0 : 10) + GATE_ORDER[g.kind];
  run.gates = run.gates
    .map((g, i) => ({ g, i }))
    .sort((a, b) => rank(a.g) - rank(b.g) || a.i - b.i)
    .map((x) => x.g);
  return run;
}

/** Reads one state directory; a throwing reader gives a run of unknown status carrying the problem. */
export function readSource(
  source: RunSource,
  teams: readonly Team[],
  settings: ReadSettings,
  readers: SourceReaders,
): SourceRead {
  const read = readSourceUnordered(source, teams, settings, readers);
  orderGates(read.run);
  return read;
}

function readSourceUnordered(
  source: RunSource,
  teams: readonly Team[],
  settings: ReadSettings,
  readers: SourceReaders,
): SourceRead {
  try {
    const read = readers.systems.find((m) => m.system === source.system)?.readRun;
    if (!read) throw new Error(`no reader for ${source.system} state directories`);
    const r = read(source.root, source.stateDir, teams, settings);
    return {
      source,
      run: unreadableStateDir(r.run, source.stateDir),
      teamNames: r.teamNames,
      ...(r.polled ? { polled: true } : {}),
    };
  } catch (err) {
    const run = emptyRun(
      source.system,
      sanitizeLine(path.basename(source.root)) || source.system,
      source.root,
      source.stateDir,
    );
    run.problems.push({ file: source.stateDir, message: `the ${source.system} reader failed: ${failure(err)}` });
    return { source, run, teamNames: [] };
  }
}

/**
 * A state directory that can't be listed leaves every reader blind: whatever it made of that, the
 * run's status is unknown (never "idle") and the run says why.
 */
function unreadableStateDir(run: Run, stateDir: string): Run {
  const problem = unlistable(stateDir);
  if (!problem) return run;
  if (!run.problems.some((p) => p.file === problem.file && p.message === problem.message))
    run.problems.unshift(problem);
  run.status = 'unknown';
  return run;
}

/** A Claude team as a run of its own; a throwing reader gives a run of unknown status. */
export function readTeamRun(team: Team, settings: ReadSettings, readers: SourceReaders): Run {
  try {
    return readers.teamRun(team, settings);
  } catch (err) {
    const run = emptyRun(readers.teamSystem, team.name, null, path.dirname(team.configFile));
    run.problems.push({ file: team.configFile, message: `the ${readers.teamSystem} reader failed: ${failure(err)}` });
    return run;
  }
}

/** Calls a whole-directory reader; a throw becomes one snapshot-level problem. */
export function guarded<T>(what: string, file: string, fallback: T, read: () => T, problems: Problem[]): T {
  try {
    return read();
  } catch (err) {
    problems.push({ file, message: `reading ${what} failed: ${failure(err)}` });
    return fallback;
  }
}
