/**
 * From what the live store has read to the snapshot it publishes: one assembly kept from publish
 * to publish (a run is rebuilt only when what it was read from is a new object, or the panes
 * changed), compared by JSON, so every run whose content is the same keeps its earlier object and
 * the UI re-renders only what changed.
 */
import type { Problem, Run, Snapshot } from '../model/model.js';
import type { ReadSettings, Team } from '../systems/types.js';
import { claimedPanes, seatsByFolder } from './folder-panes.js';
import { applyLiveness } from './liveness.js';
import type { PaneIndex } from './liveness.js';
import type { LeadSeats } from './hook-leads.js';
import { Assembly } from './assemble.js';
import { recordDelta } from './delta.js';
import type { Origin } from './assemble.js';
import { readTeamRun } from './readers.js';
import type { LoneAgentLister } from './lone-agents.js';
import type { PaneInfo } from '../tmux/client.js';
import type { SourceRead, SourceReaders } from './readers.js';

export type { Origin } from './assemble.js';

export class SnapshotPublisher {
  /** The published snapshot: the same object until something differs. */
  snapshot: Snapshot;

  private paneIndex: PaneIndex | null = null;
  private leadSeats: LeadSeats | null = null;
  private relive = false;
  private panes: readonly PaneInfo[] | null = null;
  private loneAgents: LoneAgentLister | null = null;
  private settings: ReadSettings | null = null;
  private jsonCache = new WeakMap<Run, string>();
  private problemsJson = '[]';
  private readonly assembly: Assembly;

  constructor(
    private readonly readers: SourceReaders,
    private readonly now: () => number,
  ) {
    this.snapshot = { version: 1, generatedAt: new Date(now()).toISOString(), runs: [], problems: [] };
    this.assembly = new Assembly({
      teamRun: (team) => readTeamRun(team, this.settings as ReadSettings, this.readers),
      live: (run) => applyLiveness(run, this.paneIndex),
      same: (a, b) => this.json(a) === this.json(b),
    });
  }

  /** Run id → where it came from, for `refresh(id)`. */
  get origins(): ReadonlyMap<string, Origin> {
    return this.assembly.origins;
  }

  /** New pane liveness: every run's members are looked at again on the next publish. */
  setPanes(index: PaneIndex | null): void {
    if (index && this.leadSeats) index.leadSeats = this.leadSeats;
    this.paneIndex = index;
    this.relive = true;
  }

  /** The panes of tower's server and the lister of agents outside every run, which lists them from those panes. */
  setAgentPanes(panes: readonly PaneInfo[] | null, loneAgents: LoneAgentLister | null): void {
    this.panes = panes;
    this.loneAgents = loneAgents;
  }

  /**
   * Where sessions' hooks last ran moved (a lead with no pane may be seated elsewhere): members are looked at
   * again.
   */
  setLeadSeats(seats: LeadSeats): void {
    this.leadSeats = seats;
    if (this.paneIndex) this.paneIndex.leadSeats = seats;
    this.relive = true;
  }

  /**
   * Brings the run list up to date (store/assemble.ts); returns true when a new snapshot object was
   * published. `changedTeams`: the only teams that can differ since the last publish (null: any).
   */
  publish(
    reads: Iterable<[string, SourceRead]>,
    teams: ReadonlyMap<string, Team>,
    problems: Problem[],
    settings: ReadSettings,
    changedTeams: Iterable<string> | null = null,
  ): boolean {
    this.settings = settings;
    const prev = this.snapshot;
    const changed = changedTeams ? { dirNames: changedTeams, get: (dirName: string) => teams.get(dirName) } : null;
    let all: Iterable<readonly [string, SourceRead]> = reads;
    if (this.loneAgents && this.panes && this.panes.length > 0) {
      const listed = [...reads];
      const lone = this.loneAgents(this.panes, listed, teams);
      all = lone.length > 0 ? [...listed, ...lone] : listed;
    }
    const listed = this.paneIndex ? [...all] : [];
    if (this.paneIndex) all = listed;
    // Only where a run seats the panes of its folder (a harness, SAGE, dotagent run): the teams are read for it.
    if (this.paneIndex && listed.some(([, r]) => seatsByFolder(r.run))) {
      // A pane a team takes (or gives up) changes which panes seat a run by its folder.
      const claimed = claimedPanes(listed, teams);
      const before = this.paneIndex.claimed;
      if (!before || before.size !== claimed.size || [...claimed].some((p) => !before.has(p))) this.relive = true;
      this.paneIndex.claimed = claimed;
    }
    const runs = this.assembly.update(all, teams, this.relive, changed);
    this.relive = false;
    const problemsJson = JSON.stringify(problems);
    if (problemsJson === this.problemsJson && runs === prev.runs) return false;
    this.problemsJson = problemsJson;
    this.snapshot = { version: 1, generatedAt: new Date(this.now()).toISOString(), runs, problems };
    // Consumers that follow every snapshot take what changed instead of walking every run.
    const change = this.assembly.change;
    if (runs === prev.runs)
      recordDelta(this.snapshot, { prev, removed: [], added: [], edit: { removeAt: [], insert: [] } });
    else if (change && change.base === prev.runs)
      recordDelta(this.snapshot, { prev, removed: change.removed, added: change.added, edit: change.edit });
    return true;
  }

  private json(run: Run): string {
    let json = this.jsonCache.get(run);
    if (json === undefined) {
      json = JSON.stringify(run);
      this.jsonCache.set(run, json);
    }
    return json;
  }
}
