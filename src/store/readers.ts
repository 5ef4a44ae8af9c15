/**
 * The source readers the store calls, as one table so a test can swap one in (e.g. a reader that
 * throws), and the guarded calls: a reader that throws is a bug, and becomes a problem on a run of
 * unknown status instead of a crash.
 */
import path from 'node:path';
import { emptyRun } from '../model.js';
import type { Gate, Problem, Run } from '../model.js';
import { readTeam, readTeams, teamRun } from '../systems/claude-teams/teams.js';
import { readDotagentRun } from '../systems/dotagent/read.js';
import { readHarnessRun } from '../systems/harness/read.js';
import { readSageRun } from '../systems/sage/read.js';
import { findTinaStateDirs, readTinaRun, readTinaSessions } from '../systems/tina/read.js';
import type { ReadSettings, Team } from '../systems/types.js';
import { sanitizeLine } from '../text.js';
import type { RunSource } from './discover.js';

/** Every reader the store uses. */
export interface SourceReaders {
  readTeams(claudeDir: string): { teams: Team[]; problems: Problem[] };
  /** One team by its folder name under `<claudeDir>/teams/`; null when the folder is gone. */
  readTeam(claudeDir: string, dirName: string): Team | null;
  teamRun(team: Team, settings: ReadSettings): Run;
  findTinaStateDirs(root: string): string[];
  readTinaSessions(claudeDir: string): { roots: string[]; problems: Problem[] };
  readTinaRun(root: string, stateDir: string, teams: Team[], settings: ReadSettings): { run: Run; teamNames: string[] };
  readHarnessRun(root: string, stateDir: string, settings: ReadSettings): Run;
  readSageRun(root: string, stateDir: string, settings: ReadSettings): Run;
  readDotagentRun(root: string, stateDir: string, settings: ReadSettings): Run;
}

/** The real readers. */
export const defaultReaders: SourceReaders = {
  readTeams,
  readTeam,
  teamRun,
  findTinaStateDirs,
  readTinaSessions,
  readTinaRun,
  readHarnessRun,
  readSageRun,
  readDotagentRun,
};

/** The outcome of reading one state directory. */
export interface SourceRead {
  source: RunSource;
  run: Run;
  /** Claude teams the run merged (tina), so they are not listed again as runs of their own. */
  teamNames: string[];
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
export function readSource(source: RunSource, teams: Team[], settings: ReadSettings, readers: SourceReaders): SourceRead {
  const read = readSourceUnordered(source, teams, settings, readers);
  orderGates(read.run);
  return read;
}

function readSourceUnordered(source: RunSource, teams: Team[], settings: ReadSettings, readers: SourceReaders): SourceRead {
  try {
    switch (source.system) {
      case 'tina': {
        const r = readers.readTinaRun(source.root, source.stateDir, teams, settings);
        return { source, run: r.run, teamNames: r.teamNames };
      }
      case 'harness':
        return { source, run: readers.readHarnessRun(source.root, source.stateDir, settings), teamNames: [] };
      case 'sage':
        return { source, run: readers.readSageRun(source.root, source.stateDir, settings), teamNames: [] };
      case 'dotagent':
        return { source, run: readers.readDotagentRun(source.root, source.stateDir, settings), teamNames: [] };
    }
  } catch (err) {
    const run = emptyRun(source.system, sanitizeLine(path.basename(source.root)) || source.system, source.root, source.stateDir);
    run.problems.push({ file: source.stateDir, message: `the ${source.system} reader failed: ${failure(err)}` });
    return { source, run, teamNames: [] };
  }
}

/** A Claude team as a run of its own; a throwing reader gives a run of unknown status. */
export function readTeamRun(team: Team, settings: ReadSettings, readers: SourceReaders): Run {
  try {
    return readers.teamRun(team, settings);
  } catch (err) {
    const run = emptyRun('claude-team', team.name, null, path.dirname(team.configFile));
    run.problems.push({ file: team.configFile, message: `the claude-team reader failed: ${failure(err)}` });
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
