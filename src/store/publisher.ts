/**
 * From what the live store has read to the snapshot it publishes. Caches by object identity (a
 * run object only changes when its files were re-read or liveness changed), compares runs by their
 * JSON, and hands back the previous object for every run whose content is the same, so the UI
 * re-renders only what changed.
 */
import type { Problem, Run, Snapshot } from '../model.js';
import type { ReadSettings, Team } from '../systems/types.js';
import { applyLiveness } from './liveness.js';
import type { PaneIndex } from './liveness.js';
import { assembleRuns } from './assemble.js';
import type { Origin } from './assemble.js';
import { readTeamRun } from './readers.js';
import type { SourceRead, SourceReaders } from './readers.js';

export type { Origin } from './assemble.js';

export class SnapshotPublisher {
  /** The published snapshot: the same object until something differs. */
  snapshot: Snapshot;
  /** Run id → where it came from, for `refresh(id)`. */
  origins = new Map<string, Origin>();

  private paneIndex: PaneIndex | null = null;
  private teamRunCache = new WeakMap<Team, Run>();
  private liveCache = new WeakMap<Run, Run>();
  private jsonCache = new WeakMap<Run, string>();
  private published = new Map<string, { run: Run; json: string }>();
  private problemsJson = '[]';

  constructor(
    private readonly readers: SourceReaders,
    private readonly now: () => number,
  ) {
    this.snapshot = { version: 1, generatedAt: new Date(now()).toISOString(), runs: [], problems: [] };
  }

  /** New pane liveness: every run's members are looked at again on the next publish. */
  setPanes(index: PaneIndex | null): void {
    this.paneIndex = index;
    this.liveCache = new WeakMap();
  }

  /** Builds the run list (store/assemble.ts, cached here); returns true when a new snapshot object was published. */
  publish(reads: Iterable<[string, SourceRead]>, teams: Map<string, Team>, problems: Problem[], settings: ReadSettings): boolean {
    const published = new Map<string, { run: Run; json: string }>();
    const origins = new Map<string, Origin>();
    const sorted = assembleRuns(reads, teams, {
      teamRun: (team) => {
        let run = this.teamRunCache.get(team);
        if (!run) {
          run = readTeamRun(team, settings, this.readers);
          this.teamRunCache.set(team, run);
        }
        return run;
      },
      live: (run) => {
        let l = this.liveCache.get(run);
        if (!l) {
          l = applyLiveness(run, this.paneIndex);
          this.liveCache.set(run, l);
        }
        return l;
      },
      keep: (run, origin) => {
        const shared = this.share(run, published);
        origins.set(shared.id, origin);
        return shared;
      },
    });
    this.published = published;
    this.origins = origins;
    const problemsJson = JSON.stringify(problems);
    const prev = this.snapshot.runs;
    if (problemsJson === this.problemsJson && sorted.length === prev.length && sorted.every((r, i) => r === prev[i])) return false;
    this.problemsJson = problemsJson;
    this.snapshot = { version: 1, generatedAt: new Date(this.now()).toISOString(), runs: sorted, problems };
    return true;
  }

  /** The previously published object for this id when its content is unchanged, else this one. */
  private share(run: Run, published: Map<string, { run: Run; json: string }>): Run {
    let json = this.jsonCache.get(run);
    if (json === undefined) {
      json = JSON.stringify(run);
      this.jsonCache.set(run, json);
    }
    const prev = this.published.get(run.id);
    const kept = prev && prev.json === json ? prev.run : run;
    published.set(run.id, { run: kept, json });
    return kept;
  }
}
