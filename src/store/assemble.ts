/**
 * The one step from what was read to the snapshot's run list, shared by `tower status`
 * (store/snapshot.ts, once) and the live store (store/publisher.ts, kept and updated): Claude teams
 * merged into a run are not runs of their own, liveness is applied, ids are given, runs are sorted.
 * A step added here (pane captures, remote hosts) reaches both.
 *
 * An update costs what changed, not what the box holds: a run is rebuilt only when its input (a
 * state directory's read, a team) is a new object, ids are worked out again only among the runs
 * that share a name, and a changed run moves in the sorted list by binary search. On a box of
 * 10,000 teams a task change cost the full rebuild ~56 ms of CPU (ids and order of every run);
 * test/bench/scale.bench.ts prints what it costs now.
 */
import type { Run } from '../model/model.js';
import type { Team } from '../systems/types.js';
import type { RunEdit } from './delta.js';
import { compareRanked, urgency } from './order.js';
import type { SourceRead } from './readers.js';

/** Where a run of the snapshot came from: a state directory (by source key) or a Claude team (by folder). */
export type Origin = { source: string } | { team: string };

/** How assembly turns its inputs into runs; the live store caches behind these. */
export interface AssembleHooks {
  /** The run of a Claude team that no other run merges. */
  teamRun(team: Team): Run;
  /** The run with member liveness applied. */
  live(run: Run): Run;
  /** Whether a rebuilt run equals the one published before (then the earlier object is kept). */
  same?(before: Run, after: Run): boolean;
}

/** One run of the list and everything it was made from. */
interface Entry {
  origin: Origin;
  input: SourceRead | Team;
  /** The run as read, before its id and liveness. */
  raw: Run;
  base: string;
  rootKey: string;
  id: string;
  /** The run as published, and its place in the order. */
  out: Run | null;
  rank: number;
  /** The last update that saw this entry's input. */
  epoch: number;
}

/** More changed runs than this share of the list: sorting them all is cheaper than moving each. */
const RESORT_SHARE = 0.25;
/**
 * Up to this many runs leaving and coming, an update says how the list changed (RunEdit); past it, consumers
 * walk the list.
 */
const MAX_EDIT = 64;

/** What the last update changed, when it can be told: the runs that left and came, and how the list moved. */
export interface AssemblyChange {
  /** The run list this change starts from. */
  base: readonly Run[];
  removed: Run[];
  added: Run[];
  edit: RunEdit;
}

/** The teams an update looks at: every one, or (when the caller knows) only those whose folders changed. */
export interface ChangedTeams {
  dirNames: Iterable<string>;
  get(dirName: string): Team | undefined;
}

const baseId = (run: Run) => `${run.system}:${run.name}`;
const rootKey = (run: Run) => `${run.root ?? ''}\u0000${run.stateDir ?? ''}`;

/** The run list, kept up to date from the reads and teams handed to `update`. */
export class Assembly {
  /** Run id → where it came from (for `refresh(id)`). */
  readonly origins = new Map<string, Origin>();
  private readonly sourceEntries = new Map<string, Entry>();
  private readonly teamEntries = new Map<string, Entry>();
  private epoch = 0;
  /** Base id (`<system>:<name>`) → the entries that share it. */
  private readonly groups = new Map<string, Set<Entry>>();
  /** The entries in the snapshot's order, and the runs as last handed out. */
  private order: Entry[] = [];
  private runs: Run[] = [];
  /** Team names the reads take in, as of the last update. */
  private claimed = new Set<string>();
  /** What the last update changed (null: it cannot be told, or nothing changed). */
  change: AssemblyChange | null = null;

  constructor(private readonly hooks: AssembleHooks) {}

  /**
   * The runs for these reads and teams, in the snapshot's order; the same array as last time when no
   * run changed. `relive`: the panes changed, so liveness is applied to every run again. `changed`:
   * only these teams can differ from the last update (the others are not walked: on a box of
   * 10,000 teams the walk was ~1 ms a change); ignored when the reads take in other teams than before.
   */
  update(
    reads: Iterable<readonly [string, SourceRead]>,
    teams: Iterable<readonly [string, Team]>,
    relive = false,
    changed: ChangedTeams | null = null,
  ): Run[] {
    const epoch = ++this.epoch;
    const rebuilt = new Set<Entry>();
    const dirtyGroups = new Set<string>();
    const claimed = new Set<string>();
    // Called once per run looked at: nothing is made here for a run whose input is unchanged.
    const take = (map: Map<string, Entry>, key: string, input: SourceRead | Team) => {
      let entry = map.get(key);
      if (entry && entry.input === input) {
        entry.epoch = epoch;
        if (relive) rebuilt.add(entry);
        return;
      }
      const raw = 'run' in input ? input.run : this.hooks.teamRun(input);
      if (entry) {
        if (entry.base !== baseId(raw) || entry.rootKey !== rootKey(raw)) this.leave(entry, dirtyGroups);
        entry.input = input;
        entry.raw = raw;
        entry.epoch = epoch;
      } else {
        const origin: Origin = map === this.sourceEntries ? { source: key } : { team: key };
        entry = { origin, input, raw, base: '', rootKey: '', id: '', out: null, rank: 0, epoch };
        map.set(key, entry);
      }
      if (entry.base !== baseId(raw) || entry.rootKey !== rootKey(raw)) this.join(entry, dirtyGroups);
      rebuilt.add(entry);
    };
    const gone: Entry[] = [];
    const drop = (map: Map<string, Entry>, key: string, entry: Entry) => {
      map.delete(key);
      this.leave(entry, dirtyGroups);
      gone.push(entry);
    };
    let seenSources = 0;
    for (const [key, read] of reads) {
      seenSources++;
      take(this.sourceEntries, key, read);
      for (const n of read.teamNames) claimed.add(n);
    }
    const sameClaims = claimed.size === this.claimed.size && [...claimed].every((n) => this.claimed.has(n));
    this.claimed = claimed;
    if (changed && !relive && sameClaims) {
      for (const dirName of new Set(changed.dirNames)) {
        const team = changed.get(dirName);
        const entry = this.teamEntries.get(dirName);
        if (team && !claimed.has(team.name)) take(this.teamEntries, dirName, team);
        else if (entry) drop(this.teamEntries, dirName, entry);
      }
    } else {
      let seenTeams = 0;
      for (const [dirName, team] of teams) {
        if (claimed.has(team.name)) continue;
        seenTeams++;
        take(this.teamEntries, dirName, team);
      }
      if (seenTeams !== this.teamEntries.size)
        for (const [key, entry] of this.teamEntries) if (entry.epoch !== epoch) drop(this.teamEntries, key, entry);
    }
    if (seenSources !== this.sourceEntries.size)
      for (const [key, entry] of this.sourceEntries) if (entry.epoch !== epoch) drop(this.sourceEntries, key, entry);
    for (const base of dirtyGroups) this.giveIds(base, rebuilt);
    return this.place(rebuilt, gone);
  }

  private join(entry: Entry, dirty: Set<string>): void {
    entry.base = baseId(entry.raw);
    entry.rootKey = rootKey(entry.raw);
    let group = this.groups.get(entry.base);
    if (!group) this.groups.set(entry.base, (group = new Set()));
    group.add(entry);
    this.markGroup(entry.base, dirty);
  }

  private leave(entry: Entry, dirty: Set<string>): void {
    const group = this.groups.get(entry.base);
    group?.delete(entry);
    if (group?.size === 0) this.groups.delete(entry.base);
    this.markGroup(entry.base, dirty);
  }

  /** A group to give ids again; a name like `x#2` coming or going moves the suffixes of `x` too. */
  private markGroup(base: string, dirty: Set<string>): void {
    dirty.add(base);
    const plain = base.includes('#') ? /^(.*)#\d+$/.exec(base)?.[1] : undefined;
    if (plain) dirty.add(plain);
  }

  /** Ids within one group: the first by root keeps `<system>:<name>`, the others `#2`, `#3`, skipping names in use. */
  private giveIds(base: string, changed: Set<Entry>): void {
    const group = this.groups.get(base);
    if (!group) return;
    if (group.size === 1) {
      // A name of its own (nearly every run): it keeps `<system>:<name>`, nothing sorted.
      for (const entry of group) {
        if (entry.id !== base) changed.add(entry);
        entry.id = base;
      }
      return;
    }
    const members = [...group].sort((a, b) => (a.rootKey < b.rootKey ? -1 : a.rootKey > b.rootKey ? 1 : 0));
    let n = 1;
    for (const entry of members) {
      let id = base;
      if (n > 1) while (this.groups.has((id = `${base}#${n}`))) n++;
      n++;
      if (entry.id !== id) changed.add(entry);
      entry.id = id;
    }
  }

  /** Rebuilds the changed runs and moves them to their place; drops the gone ones. */
  private place(changed: Set<Entry>, gone: Entry[]): Run[] {
    this.change = null;
    const moved: { entry: Entry; out: Run }[] = [];
    for (const entry of changed) {
      const out = this.build(entry);
      if (out !== entry.out) moved.push({ entry, out });
    }
    if (moved.length === 0 && gone.length === 0) return this.runs;

    const leaving = new Set<Entry>(gone);
    for (const { entry } of moved) if (entry.out) leaving.add(entry);
    // Ids can pass from one run to another (`x` and `x#2` swap): every old id goes before any new one is set.
    for (const entry of leaving)
      if (entry.out && this.origins.get(entry.out.id) === entry.origin) this.origins.delete(entry.out.id);
    if (leaving.size + moved.length <= MAX_EDIT) return this.edit(leaving, moved);
    for (const { entry, out } of moved) {
      entry.out = out;
      entry.rank = urgency(out);
      this.origins.set(entry.id, entry.origin);
    }
    if (moved.length + gone.length > this.order.length * RESORT_SHARE) {
      this.order = [...this.sourceEntries.values(), ...this.teamEntries.values()].sort(compareRanked);
    } else {
      this.order = this.order.filter((e) => !leaving.has(e));
      for (const { entry } of moved) this.order.splice(this.slot(entry), 0, entry);
    }
    this.runs = this.order.map((e) => e.out as Run);
    return this.runs;
  }

  /** A few runs leave and come: the list is edited in place of being made again, and the edit is kept for consumers. */
  private edit(leaving: Set<Entry>, moved: { entry: Entry; out: Run }[]): Run[] {
    const base = this.runs;
    const removing = [...leaving].map((e) => this.order.indexOf(e)).filter((i) => i >= 0);
    removing.sort((a, b) => a - b);
    const removed = removing.map((i) => base[i] as Run);
    // The order is this assembly's own; the run list is handed out, so a new one is made.
    const order = this.order;
    const runs = base.slice();
    for (let i = removing.length - 1; i >= 0; i--) {
      order.splice(removing[i] as number, 1);
      runs.splice(removing[i] as number, 1);
    }
    const insert: { at: number; run: Run }[] = [];
    for (const { entry, out } of moved) {
      entry.out = out;
      entry.rank = urgency(out);
      this.origins.set(entry.id, entry.origin);
      const at = this.slot(entry);
      order.splice(at, 0, entry);
      runs.splice(at, 0, out);
      insert.push({ at, run: out });
    }
    const added = moved
      .map((m) => m.entry)
      .sort(compareRanked)
      .map((e) => e.out as Run);
    this.runs = runs;
    this.change = { base, removed, added, edit: { removeAt: removing, insert } };
    return runs;
  }

  /** The run to publish for an entry: the earlier object when it is the same run. */
  private build(entry: Entry): Run {
    const withId = entry.raw.id === entry.id ? entry.raw : { ...entry.raw, id: entry.id };
    const live = this.hooks.live(withId);
    return entry.out && this.hooks.same?.(entry.out, live) ? entry.out : live;
  }

  /** Where an entry goes in the order (binary search on urgency, then id). */
  private slot(entry: Entry): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareRanked(entry, this.order[mid] as Entry) < 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/**
 * The snapshot's runs from the state directories read (by source key) and the Claude teams (by
 * folder name), in the snapshot's order: one update of a fresh assembly.
 */
export function assembleRuns(
  reads: Iterable<readonly [string, SourceRead]>,
  teams: Iterable<readonly [string, Team]>,
  hooks: AssembleHooks,
): Run[] {
  return new Assembly(hooks).update(reads, teams);
}

/** A team's folder name (what file events name and what the live store keys teams by). */
export function teamDirName(team: Team): string {
  // The name between the last two separators (either kind), without splitting the whole path.
  const file = team.configFile;
  const end = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  if (end < 0) return team.name;
  const start = Math.max(file.lastIndexOf('/', end - 1), file.lastIndexOf('\\', end - 1));
  return file.slice(start + 1, end);
}
