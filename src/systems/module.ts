/**
 * What tower knows about one agent system, in one typed shape. The store, the actions and the UI loop
 * over the registry's list of these and never name a system; everything particular to a system
 * (where its files are, how a run is read, how a gate is granted, what is typed into a lead) lives in
 * its folder under src/systems/.
 */
import type { Config } from '../config/config.js';
import type { Gate, Problem, Run, System } from '../model/model.js';
import type { AppContext } from '../context/context.js';
import type { ActionOutcome, ActionRequest, Effect } from '../kit/types.js';
import type { GrantDetail, RequestDetail } from '../kit/detail.js';
import type { Execution, PlanParts } from '../kit/execution.js';
import type { ReadSettings, Team } from './types.js';

/** A run read from one state directory, with the Claude teams it took in (so they are not runs of their own). */
export interface RunRead {
  run: Run;
  teamNames: string[];
  /** The run is read from data fetched, not watched (an operator's API): the store reads it again every poll tick. */
  polled?: boolean;
}

/** Reads the Claude Code teams under the Claude dir: the system whose runs are teams, not state directories. */
export interface TeamReaders {
  /** Every team; `reuse` may hand back a team already read, which is then not read again. */
  readTeams(claudeDir: string, reuse?: (dirName: string) => Team | null): { teams: Team[]; problems: Problem[] };
  /** When a team's files last changed (two stats), to tell whether it must be read again. */
  teamChangedAt(team: Team): number | null;
  /** One team by its folder name under `<claudeDir>/teams/`; null when the folder is gone. */
  readTeam(claudeDir: string, dirName: string): Team | null;
  teamRun(team: Team, settings: ReadSettings): Run;
}

/** A list of project roots a system keeps under the Claude dir (worktrees nobody else names). */
export interface RootRegistry {
  /** The folder below the Claude dir, watched so a new entry is seen. */
  dir: string;
  read(claudeDir: string): { roots: string[]; problems: Problem[] };
}

/** The files a checkpoint cycle compares and writes in a run's state directory. */
export interface CycleFiles {
  /** Written before the command is typed (when missing) and deleted after rehydrate. */
  signalFile: string;
  /** Awaited: newer than the signal means the checkpoint is done; null when the phase is unknown. */
  handoffFile: string | null;
  /** Written when the handoff never comes. */
  escalationFile: string;
}

/** How the checkpoint cycle (checkpoint, clear, rehydrate) reaches a system's lead. */
export interface CycleWay {
  /** The config `commands` entry typed into the lead. */
  commands: keyof Config['commands'];
  /**
   * The team names of the run's working team (a lead there is preferred; only its teammates are
   * stragglers), or null when every member of the run is on it.
   */
  workingTeams(run: Run): string[] | null;
  /** The tmux session the working lead runs in when the team file names no pane, or null. */
  leadSession(run: Run): string | null;
  /** The state files of a run in its state directory; null when the system keeps none (the pane is the only signal). */
  files: ((stateDir: string, run: Run) => CycleFiles) | null;
  /** Whether a context gate starts a checkpoint cycle on its own under `tower watch --auto-checkpoint`. */
  autoOnContext: boolean;
}

/** What planning a grant resolved: the file written and the effects shown before it runs. */
export type GrantPlan =
  | { refusal: string }
  | { detail: Pick<GrantDetail, 'file' | 'pendingFile' | 'lockFile' | 'raisedBy' | 'url'>; effects: Effect[] };

/** How a system's pending gate is granted. */
export interface GrantWay {
  /** `env` is tower's own environment (where a system's service may be named). */
  plan(run: Run, gate: Gate, stateDir: string, now: Date, env: NodeJS.ProcessEnv): GrantPlan;
  /** Writes the grant and says what was written; throws ActionStop for a refusal found at run time. */
  run(d: GrantDetail, runId: string): Promise<string>;
}

/** How a system opens a named checkpoint the operator asked for. */
export interface RequestWay {
  /** The effects shown before it runs, or a refusal; `title` names the action in both. */
  plan(ctx: AppContext, run: Run, req: ActionRequest, title: string): PlanParts;
  run(x: Execution, d: RequestDetail): Promise<ActionOutcome>;
}

/** One agent system. */
export interface SystemModule {
  system: System;
  /** The badge in the runs list. */
  badge: string;
  /** Its name in sentences ("tina", "SAGE"). */
  label: string;
  /** Its runs in the plural, for messages listing systems ("tina runs", "Claude Code teams"). */
  plural: string;
  /** Directories below a project root that hold its state, in the order they are read. */
  markers: readonly string[];
  /**
   * Reads one run from a state directory (null for a system whose runs are not state directories).
   * `teams` is the box's list for this read, shared by every run of it and never changed once
   * handed over (a reader may index it once for all of them).
   */
  readRun: ((root: string, stateDir: string, teams: readonly Team[], settings: ReadSettings) => RunRead) | null;
  /** Whether its runs take in Claude teams: such runs are re-read when any team changes. */
  mergesTeams: boolean;
  /** Files outside its state directories that its runs depend on, relative to the project root (e.g. a log). */
  watchFiles: readonly string[];
  rootRegistry: RootRegistry | null;
  teams: TeamReaders | null;
  cycle: CycleWay | null;
  grant: GrantWay | null;
  /** How the operator requests a named checkpoint (a file tower creates in the state dir), or null. */
  requests: RequestWay | null;
}
