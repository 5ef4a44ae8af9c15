/**
 * The one step from what was read to the snapshot's run list, shared by `tower status`
 * (store/snapshot.ts) and the live store (store/publisher.ts): Claude teams merged into a run are
 * not runs of their own, liveness is applied, ids are given, runs are sorted. The live store passes
 * hooks that cache; `tower status` passes plain functions. A step added here (pane captures,
 * remote hosts) reaches both.
 */
import type { Run } from '../model.js';
import type { Team } from '../systems/types.js';
import { assignIds, sortRuns } from './order.js';
import type { SourceRead } from './readers.js';

/** Where a run of the snapshot came from: a state directory (by source key) or a Claude team (by folder). */
export type Origin = { source: string } | { team: string };

/** How assembly turns its inputs into runs; the live store caches behind these. */
export interface AssembleHooks {
  /** The run of a Claude team that no other run merges. */
  teamRun(team: Team): Run;
  /** The run with member liveness applied. */
  live(run: Run): Run;
  /** The run once it has its final id (the live store hands back an equal earlier object here). */
  keep?(run: Run, origin: Origin): Run;
}

/**
 * The snapshot's runs from the state directories read (by source key) and the Claude teams (by
 * folder name), in the snapshot's order.
 */
export function assembleRuns(reads: Iterable<readonly [string, SourceRead]>, teams: Iterable<readonly [string, Team]>, hooks: AssembleHooks): Run[] {
  const raw: { run: Run; origin: Origin }[] = [];
  const claimed = new Set<string>();
  for (const [key, read] of reads) {
    raw.push({ run: read.run, origin: { source: key } });
    for (const n of read.teamNames) claimed.add(n);
  }
  for (const [dirName, team] of teams) {
    if (!claimed.has(team.name)) raw.push({ run: hooks.teamRun(team), origin: { team: dirName } });
  }
  // assignIds keeps the order, so raw[i] is where the i-th run came from.
  const runs = assignIds(raw.map(({ run }) => hooks.live(run)));
  const kept = hooks.keep ? runs.map((run, i) => (hooks.keep as NonNullable<AssembleHooks['keep']>)(run, raw[i]?.origin ?? { source: '' })) : runs;
  return sortRuns(kept);
}

/** A team's folder name (what file events name and what the live store keys teams by). */
export function teamDirName(team: Team): string {
  const parts = team.configFile.split(/[\\/]/);
  return parts[parts.length - 2] ?? team.name;
}
